import { readFileSync } from 'node:fs';

/** Linux reports process times in USER_HZ ticks, 100 a second on every mainstream kernel. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) the processes have used so far, read from
 * /proc; undefined where there is no /proc (the figure is then left out).
 * Processes that are gone count as zero.
 */
export function cpuSeconds(pids: readonly number[]): number | undefined {
  try {
    readFileSync('/proc/self/stat');
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      // The command name may hold spaces and parentheses: the fields start after its last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** Milliseconds of CPU per request between two readings of cpuSeconds, or 'n/a' where either is unknown. */
export function cpuMsPerRequest(after: number | undefined, before: number | undefined, requests: number): number | 'n/a' {
  return after === undefined || before === undefined ? 'n/a' : Number((((after - before) * 1000) / requests).toFixed(3));
}
