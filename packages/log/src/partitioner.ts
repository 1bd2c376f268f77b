import { Partitioners, type PartitionMetadata } from 'kafkajs';

/**
 * Kafka's default partitioner (murmur2 of the key, as the Java client), so
 * both adapters put a key on the same partition.
 */
export function keyPartitioner(): (topic: string, key: string, partitions: number) => number {
  const choose = Partitioners.DefaultPartitioner();
  const metadata = new Map<number, PartitionMetadata[]>();
  return (topic, key, partitions) => {
    let partitionMetadata = metadata.get(partitions);
    if (!partitionMetadata) {
      partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
      metadata.set(partitions, partitionMetadata);
    }
    return choose({ topic, partitionMetadata, message: { key, value: null } });
  };
}
