import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGenerator, phaseFigures, phaseLine, startPhaseCpu } from '../bench/phase-cpu';

const children: ChildProcess[] = [];

/** A node process that spins its CPU for `busyMs`, says so, then idles until it is killed. */
async function spinning(busyMs: number): Promise<number> {
  const child = spawn(
    process.execPath,
    ['-e', `const end = Date.now() + ${busyMs}; while (Date.now() < end); console.log('spun'); setInterval(() => {}, 60_000);`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the spinning process exited with ${code}`)));
  });
  return child.pid ?? 0;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe("a bench phase's CPU", () => {
  it("is each group's own, per unit, with a process started during the phase counted whole", async () => {
    const idle = await spinning(0);
    const during: number[] = [];
    const phase = await startPhaseCpu({ idle: () => [idle], busy: () => during, absent: () => [] });
    during.push(await spinning(600));
    const cpu = await phase(2);

    expect(cpu.perUnit.absent).toBe('n/a');
    // Two units: 600 ms of spinning (and the process's start) is at least 300 ms a unit.
    expect(cpu.perUnit.busy).toBeGreaterThanOrEqual(300);
    expect(cpu.perUnit.idle).toBeLessThan(25);
    expect(cpu.machineBusy).toBeGreaterThan(0);
    expect(cpu.machineBusy).toBeLessThanOrEqual(1);
  });

  it("counts the bench's own process as the load generator", async () => {
    const phase = await startPhaseCpu({ load: loadGenerator });
    const end = Date.now() + 300;
    while (Date.now() < end);
    const cpu = await phase(1);
    expect(cpu.perUnit.load).toBeGreaterThanOrEqual(250);
    expect(phaseLine(cpu, 'event')).toMatch(/^CPU per event: the load generator \(this process\) \d+ ms; the machine was \d+% busy$/);
    expect(phaseFigures('otlp_', 'event', cpu)).toEqual({ otlp_load_cpu_ms_per_event: cpu.perUnit.load, otlp_machine_busy_share: cpu.machineBusy });
  });
});
