import { describe, expect, it } from 'vitest';
import { AppendBatcher } from './append-batcher';

describe('AppendBatcher', () => {
  it('sends appends that arrive during a request together, and answers each with its own results', async () => {
    const requests: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new AppendBatcher<number, string>(async (items) => {
      requests.push(items);
      if (requests.length === 1) await gate;
      return items.map((i) => `r${i}`);
    }, 100);

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
    const batcher = new AppendBatcher<number, number>(async (items) => {
      requests.push(items);
      return items;
    }, 3);
    await Promise.all([batcher.add([1, 2]), batcher.add([3, 4]), batcher.add([5])]);
    expect(requests).toEqual([[1, 2], [3, 4, 5]]);
  });

  it('rejects only the appends of a failed request', async () => {
    let calls = 0;
    const batcher = new AppendBatcher<number, number>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('broker down');
      return items;
    }, 1);
    const failed = batcher.add([1]);
    const later = batcher.add([2]);
    await expect(failed).rejects.toThrow('broker down');
    expect(await later).toEqual([2]);
  });
});
