import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processAlive } from './process-alive';

describe('processAlive', () => {
  it('says a running process is alive and one that exited is not', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const pid = child.pid ?? 0;
    expect(processAlive(pid)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(processAlive(pid)).toBe(false);
  });

  it('counts a process that is not ours to signal as alive (pid 1), and no pid at all as dead', () => {
    // As root, pid 1 answers signal 0; as anyone else it answers EPERM: alive either way.
    expect(processAlive(1)).toBe(true);
    expect([0, -1, 1.5, Number.NaN].map(processAlive)).toEqual([false, false, false, false]);
  });
});
