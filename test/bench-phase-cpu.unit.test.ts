import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGenerator, phaseFigures, phaseLine, startPhaseCpu } from '../bench/phase-cpu';

const children: ChildProcess[] = [];

/**
 * Spins until the process has used `ms` more of its CPU: counted by its own clock, not the wall's, which a busy
 * machine (the suite runs files side by side) stretches.
 */
const SPIN = (ms: number) => `const from = process.cpuUsage(); while (process.cpuUsage(from).user < ${ms} * 1000);`;

/** A node process that spins `busyMs` of CPU, says so, then idles until it is killed. */
async function spinning(busyMs: number): Promise<number> {
  const child = spawn(process.execPath, ['-e', `${SPIN(busyMs)} console.log('spun'); setInterval(() => {}, 60_000);`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the spinning process exited with ${code}`)));
  });
  return child.pid ?? 0;
}

function spinHere(ms: number): void {
  const from = process.cpuUsage();
  while (process.cpuUsage(from).user < ms * 1000);
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe("a bench phase's CPU", () => {
  it("is each group's own, per unit, with a process started during the phase counted whole", async () => {
    const idle = await spinning(0);
    const during: number[] = [];
    // A copy each time, as a pool's connections are read afresh: the spinning process is only in the phase's end.
    const phase = await startPhaseCpu({ idle: () => [idle], busy: () => [...during], absent: () => [] });
    during.push(await spinning(600));
    const cpu = await phase(2);

    expect(cpu.perUnit.absent).toBe('n/a');
    // Two units: 600 ms of CPU spun (and the process's start) is about 300 ms a unit; /proc counts in 10 ms ticks.
    expect(cpu.perUnit.busy).toBeGreaterThanOrEqual(280);
    expect(cpu.perUnit.idle).toBeLessThan(25);
    expect(cpu.machineBusy).toBeGreaterThan(0);
    expect(cpu.machineBusy).toBeLessThanOrEqual(1);
  });

  it("counts the bench's own process as the load generator", async () => {
    const phase = await startPhaseCpu({ load: loadGenerator });
    spinHere(300);
    const cpu = await phase(1);
    expect(cpu.perUnit.load).toBeGreaterThanOrEqual(280);
    expect(phaseLine(cpu, 'event')).toMatch(/^CPU per event: the load generator \(this process\) \d+ ms; the machine was \d+% busy$/);
    expect(phaseFigures('otlp_', 'event', cpu)).toEqual({ otlp_load_cpu_ms_per_event: cpu.perUnit.load, otlp_machine_busy_share: cpu.machineBusy });
  });
});
