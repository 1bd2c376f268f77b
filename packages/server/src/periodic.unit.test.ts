import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runEvery } from './periodic';

describe('runEvery', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('skips the ticks that come while a round still runs, then runs again', async () => {
    let finish = () => undefined as void;
    const task = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const periodic = runEvery(100, task, () => undefined);
    await vi.advanceTimersByTimeAsync(350);
    expect(task).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(task).toHaveBeenCalledTimes(2);
    finish();
    await periodic.stop();
  });

  it('reports a failed round and goes on ticking', async () => {
    const errors: unknown[] = [];
    const task = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(undefined);
    const periodic = runEvery(100, task, (error) => errors.push(error));
    await vi.advanceTimersByTimeAsync(200);
    expect(errors).toEqual([new Error('down')]);
    expect(task).toHaveBeenCalledTimes(2);
    await periodic.stop();
  });

  it('stop waits for the round under way and ticks no more', async () => {
    let finish = () => undefined as void;
    let done = false;
    const task = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)).then(() => void (done = true)));
    const periodic = runEvery(100, task, () => undefined);
    await vi.advanceTimersByTimeAsync(100);
    const stopped = periodic.stop();
    finish();
    await stopped;
    expect(done).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(task).toHaveBeenCalledTimes(1);
  });
});
