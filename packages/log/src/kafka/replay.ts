import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, KafkaMessage } from 'kafkajs';
import type { LogRecord, ReplayOptions, ReplaySummary } from '../event-log';
import type { TopicName } from '../topics';

interface ReplayContext {
  /** A consumer in a group of its own, named by `name`. */
  consumerOf: (name: string) => Consumer;
  admin: Admin;
  physical: (topic: TopicName) => string;
  toRecord: (topic: string, partition: number, message: KafkaMessage) => LogRecord;
  options: ReplayOptions;
}

/**
 * Reads each partition from a start point up to the end it had when the replay
 * began: records appended meanwhile belong to the live consumers, not to it.
 */
export async function replayUntilEnd({ consumerOf, admin, physical, toRecord, options }: ReplayContext): Promise<ReplaySummary> {
  const remaining = new Map<string, { start: bigint; end: bigint }>();
  for (const topic of options.topics) {
    const name = physical(topic);
    const ends = await admin.fetchTopicOffsets(name);
    const starts =
      options.from === 'earliest'
        ? ends.map((e) => ({ partition: e.partition, offset: e.low }))
        : await admin.fetchTopicOffsetsByTimestamp(name, options.from.getTime());
    for (const end of ends) {
      const startOffset = starts.find((s) => s.partition === end.partition)?.offset ?? end.high;
      // Kafka answers -1 for "no record at or after that time".
      const start = BigInt(startOffset) < 0n ? BigInt(end.high) : BigInt(startOffset);
      if (start < BigInt(end.high)) remaining.set(`${name}:${end.partition}`, { start, end: BigInt(end.high) });
    }
  }
  if (remaining.size === 0) return { records: 0 };

  const consumer = consumerOf(`replay-${randomUUID()}`);
  let records = 0;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: options.topics.map(physical), fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            const slot = `${batch.topic}:${batch.partition}`;
            const range = remaining.get(slot);
            if (!range) return;
            const wanted = batch.messages.filter((m) => BigInt(m.offset) >= range.start && BigInt(m.offset) < range.end);
            if (wanted.length > 0) {
              await options.onBatch(wanted.map((m) => toRecord(batch.topic, batch.partition, m)));
              records += wanted.length;
            }
            const last = batch.messages[batch.messages.length - 1];
            if (last && BigInt(last.offset) + 1n >= range.end) remaining.delete(slot);
            if (remaining.size === 0) resolve();
          },
        })
        .catch(reject);
      consumer.on(consumer.events.CRASH, (event) => reject(event.payload.error));
      for (const [slot, range] of remaining) {
        const cut = slot.lastIndexOf(':');
        consumer.seek({ topic: slot.slice(0, cut), partition: Number(slot.slice(cut + 1)), offset: range.start.toString() });
      }
    });
  } finally {
    await consumer.disconnect();
  }
  return { records };
}
