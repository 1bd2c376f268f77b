import { busyShare, cpuMsPerRequest, cpuSeconds, machineTicks } from './process-cpu';

/** A group's processes, read when the phase starts and again when it ends: a pool may open a connection during it. */
type Pids = () => readonly number[] | Promise<readonly number[]>;

/** The bench's own process, which makes the load: on the same cores as the system it measures. */
export const loadGenerator: Pids = () => [process.pid];

export interface PhaseCpu<K extends string> {
  /** Each group's CPU per unit of work in ms ('n/a' where it has no process here or there is no /proc). */
  perUnit: Record<K, number | 'n/a'>;
  /** How busy the whole machine was: what the groups do not add up to is someone else's. */
  machineBusy: number | 'n/a';
}

/**
 * Starts measuring what each named group of processes spends in a timed phase; the function it gives ends the phase
 * and divides by the units of work done in it. A process that starts during the phase counts whole.
 */
export async function startPhaseCpu<K extends string>(groups: Record<K, Pids>): Promise<(units: number) => Promise<PhaseCpu<K>>> {
  const names = Object.keys(groups) as K[];
  const startPids = await Promise.all(names.map(async (name) => groups[name]()));
  const before = startPids.map((pids) => cpuSeconds(pids));
  const ticksBefore = machineTicks();
  return async (units) => {
    const endPids = await Promise.all(names.map(async (name) => groups[name]()));
    const ticksAfter = machineTicks();
    const perUnit = {} as Record<K, number | 'n/a'>;
    names.forEach((name, i) => {
      const pids = [...new Set([...(startPids[i] ?? []), ...(endPids[i] ?? [])])];
      perUnit[name] = pids.length === 0 ? 'n/a' : cpuMsPerRequest(cpuSeconds(pids), before[i], units);
    });
    return { perUnit, machineBusy: busyShare(ticksAfter, ticksBefore) };
  };
}

const SPOKEN: Record<string, string> = { postgres: 'Postgres', load: 'the load generator (this process)' };

/** A phase's CPU as a report's words: each group's share of a unit, then the machine's busy share. */
export function phaseLine(cpu: PhaseCpu<string>, unit: string): string {
  const parts = Object.entries(cpu.perUnit).map(([name, ms]) => `${SPOKEN[name] ?? name} ${ms} ms`);
  const busy = cpu.machineBusy === 'n/a' ? 'n/a' : `${Math.round(cpu.machineBusy * 100)}%`;
  return `CPU per ${unit}: ${parts.join(', ')}; the machine was ${busy} busy`;
}

/** A phase's CPU as a bench's JSON figures: `<prefix><group>_cpu_ms_per_<unit>` each, and `<prefix>machine_busy_share`. */
export function phaseFigures(prefix: string, unit: string, cpu: PhaseCpu<string>): Record<string, number | string> {
  const figures: Record<string, number | string> = {};
  for (const [name, ms] of Object.entries(cpu.perUnit)) figures[`${prefix}${name}_cpu_ms_per_${unit}`] = ms;
  figures[`${prefix}machine_busy_share`] = cpu.machineBusy;
  return figures;
}
