import { randomBytes } from 'node:crypto';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { keyPartitioner } from './partitioner';

/** kafkajs's default partitioner (the Java client's murmur2) is the oracle. */
describe('keyPartitioner', () => {
  it('puts every key on the partition kafkajs puts it on', () => {
    const ours = keyPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 3, 6, 7]) {
      const partitionMetadata: PartitionMetadata[] = Array.from({ length: partitions }, (_, partitionId) => ({
        partitionId,
        leader: 0,
        partitionErrorCode: 0,
        replicas: [0],
        isr: [0],
      }));
      const keys = [
        '',
        'a',
        'ab',
        'abc',
        'abcd',
        'tenant:call-1',
        'héllo ☎',
        ...Array.from({ length: 2_000 }, (_, i) => randomBytes(i % 40).toString('base64')),
      ];
      for (const key of keys) expect(ours('t', key, partitions)).toBe(theirs({ topic: 't', partitionMetadata, message: { key, value: null } }));
    }
  });
});
