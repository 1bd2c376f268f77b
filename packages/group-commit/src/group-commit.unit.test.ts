import { describe, expect, it } from 'vitest';
import { GroupCommit, QueueFull } from './group-commit';

describe('GroupCommit', () => {
  it('sends appends that arrive during a request together, and answers each with its own results', async () => {
    const requests: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new GroupCommit<number, string>(async (items) => {
      requests.push(items);
      if (requests.length === 1) await gate;
      return items.map((i) => `r${i}`);
    });

    const first = batcher.add([1]);
    const second = batcher.add([2, 3]);
    const third = batcher.add([4]);
    release();

    expect(await first).toEqual(['r1']);
    expect(await second).toEqual(['r2', 'r3']);
    expect(await third).toEqual(['r4']);
    expect(requests).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps each request within the item limit without splitting an append', async () => {
    const requests: number[][] = [];
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        requests.push(items);
        return items;
      },
      { maxItems: 3 },
    );
    await Promise.all([batcher.add([1, 2]), batcher.add([3, 4]), batcher.add([5])]);
    expect(requests).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('rejects only the appends of a failed request', async () => {
    let calls = 0;
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        calls += 1;
        if (calls === 1) throw new Error('broker down');
        return items;
      },
      { maxItems: 1 },
    );
    const failed = batcher.add([1]);
    const later = batcher.add([2]);
    await expect(failed).rejects.toThrow('broker down');
    expect(await later).toEqual([2]);
  });

  it('keeps up to `parallel` writes in flight, and settles once all are written', async () => {
    let inFlight = 0;
    let most = 0;
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
        return items;
      },
      { parallel: 2 },
    );
    const all = Promise.all([batcher.add([1]), batcher.add([2]), batcher.add([3])]);
    await batcher.settled();
    expect(await all).toEqual([[1], [2], [3]]);
    expect(most).toBe(2);
  });

  it('writes a failed shared write again call by call when one call may be at fault, so only that call fails', async () => {
    const writes: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        if (writes.length === 1) await gate;
        if (items.includes(0)) throw new Error('invalid byte sequence');
        return items;
      },
      { isolate: (error) => error instanceof Error && error.message === 'invalid byte sequence' },
    );
    const first = batcher.add([1]);
    const victims = [batcher.add([2]), batcher.add([3, 4])];
    const culprit = batcher.add([0]);
    release();
    expect(await first).toEqual([1]);
    expect(await Promise.all(victims)).toEqual([[2], [3, 4]]);
    await expect(culprit).rejects.toThrow('invalid byte sequence');
    expect(writes).toEqual([[1], [2, 3, 4, 0], [2], [3, 4], [0]]);
  });

  it('fails every call of a shared write whose failure is no one call’s (the store unreachable)', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let writes = 0;
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        writes += 1;
        if (writes === 1) {
          await gate;
          return items;
        }
        throw new Error('connection refused');
      },
      { isolate: () => false },
    );
    const first = batcher.add([1]);
    const later = [batcher.add([2]), batcher.add([3])];
    release();
    await first;
    for (const call of later) await expect(call).rejects.toThrow('connection refused');
    expect(writes).toBe(2);
  });

  it('refuses at once a call that would queue more than `maxQueued` items behind a stuck write, and takes calls again once it drains', async () => {
    const written: number[][] = [];
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((r) => (release = r));
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        written.push(items);
        if (written.length === 1) await stuck;
        return items;
      },
      { maxQueued: 3 },
    );
    const inFlight = batcher.add([1, 2, 3, 4]); // an empty queue takes a call of any size
    const queued = batcher.add([5, 6]);
    const fits = batcher.add([7]);
    const refused = batcher.add([8, 9]);
    await expect(refused).rejects.toBeInstanceOf(QueueFull);
    release();
    expect(await Promise.all([inFlight, queued, fits])).toEqual([[1, 2, 3, 4], [5, 6], [7]]);
    expect(written.flat()).not.toContain(8);
    expect(await batcher.add([10, 11, 12])).toEqual([10, 11, 12]);
  });
});
