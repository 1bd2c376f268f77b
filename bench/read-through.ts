import { TOPICS, type EventLog } from '@earshot/log';

/**
 * Reads the events topic whole, `count` records, with a consumer group of its own, telling `each` after every batch
 * how many are read so far; resolves once the last is read, with the consumer to stop (after the caller has taken its
 * figures).
 */
export async function readThrough(log: EventLog, group: string, count: number, each: (read: number) => void): Promise<{ stop(): Promise<void> }> {
  let read = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumer = await log.consume({
    group,
    topics: [TOPICS.events],
    onBatch: async (records) => {
      read += records.length;
      each(read);
      if (read >= count) done();
    },
  });
  await finished;
  return consumer;
}
