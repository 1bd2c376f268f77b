import { describe, expect, it } from 'vitest';
import { byPartition } from './partition-groups';

describe('byPartition', () => {
  it('groups records by topic and partition, each group in the order given', () => {
    const records = [
      { topic: 'a', partition: 0, n: 1 },
      { topic: 'a', partition: 1, n: 2 },
      { topic: 'b', partition: 0, n: 3 },
      { topic: 'a', partition: 0, n: 4 },
      { topic: 'a', partition: 1, n: 5 },
    ];
    expect(byPartition(records).map((group) => group.map((r) => r.n))).toEqual([[1, 4], [2, 5], [3]]);
    expect(byPartition([])).toEqual([]);
  });
});
