const M = 0x5bd1e995;
const SEED = 0x9747b28c;

/**
 * Kafka's default partitioner: murmur2 of the key's bytes, as the Java client
 * (and kafkajs) compute it, so every adapter and every client put a key on
 * the same partition. In 32-bit integer arithmetic: kafkajs's version goes
 * through 64-bit Long objects and was 3% of a gateway's CPU.
 */
export function keyPartitioner(): (topic: string, key: string, partitions: number) => number {
  return (_topic, key, partitions) => (murmur2(Buffer.from(key)) & 0x7fffffff) % partitions;
}

function murmur2(data: Buffer): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let at = 0; at < whole; at += 4) {
    let k = (data[at] ?? 0) | ((data[at + 1] ?? 0) << 8) | ((data[at + 2] ?? 0) << 16) | ((data[at + 3] ?? 0) << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest === 3) h ^= (data[whole + 2] ?? 0) << 16;
  if (rest >= 2) h ^= (data[whole + 1] ?? 0) << 8;
  if (rest >= 1) h = Math.imul(h ^ (data[whole] ?? 0), M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  return h ^ (h >>> 15);
}
