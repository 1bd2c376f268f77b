import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, sql, type ConnectionPool } from '@earshot/db';
import { openTestDatabase, uniqueNamespace } from '@earshot/testing';
import type { EventLog, LogRecord } from '../event-log';
import { TOPICS, type TopicName } from '../topics';
import { createEmbeddedLog } from './embedded-log';
import { EMBEDDED_LOG_MIGRATIONS } from './migrations';
import { trimPastRetention } from './retention-trim';

const HOUR = 3_600_000;

describe('the embedded log’s retention', () => {
  let db: ConnectionPool;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, url, close } = await openTestDatabase('embedded_retention'));
    await migrate(db, [EMBEDDED_LOG_MIGRATIONS]);
  });
  afterAll(async () => close());

  const append = (log: EventLog, topic: TopicName, label: string, count: number) =>
    log.append(Array.from({ length: count }, (_, i) => ({ topic, key: `tenant-1:${label}-${i}`, value: Buffer.from(`${label}-${i}`) })));
  /** Makes records look stored `hours` ago, as if the log had run that long. */
  const age = (namespace: string, topic: TopicName, hours: number) =>
    db.query(sql`update earshot_log.records set stored_at = stored_at - ${hours * HOUR} * interval '1 millisecond' where topic = ${namespace + topic}`);
  const everything = async (log: EventLog, topic: TopicName) => {
    const records: LogRecord[] = [];
    await log.replay({ topics: [topic], from: 'earliest', onBatch: async (batch) => void records.push(...batch) });
    return records.map((r) => r.value.toString()).sort();
  };

  it('deletes what is older than each topic’s retention and nothing else, keeping offsets where they were', async () => {
    const namespace = uniqueNamespace('trim');
    const log = await createEmbeddedLog({ db, url, namespace });
    try {
      await append(log, TOPICS.deliveries, 'old', 30);
      await append(log, TOPICS.events, 'old-event', 10);
      await age(namespace, TOPICS.deliveries, 48);
      await age(namespace, TOPICS.events, 48);
      await append(log, TOPICS.deliveries, 'new', 5);
      const ends = await log.ends(TOPICS.deliveries);

      const physical = (t: TopicName) => `${namespace}${t}`;
      const retention = { [TOPICS.deliveries]: 24 * HOUR, [TOPICS.events]: 'forever' as const, [TOPICS.deadLetters]: 24 * HOUR };
      expect(await trimPastRetention(db, physical, retention)).toEqual({ [TOPICS.deliveries]: 30, [TOPICS.deadLetters]: 0 });
      expect(await everything(log, TOPICS.deliveries)).toEqual(['new-0', 'new-1', 'new-2', 'new-3', 'new-4']);
      expect(await everything(log, TOPICS.events)).toHaveLength(10);
      expect(await log.ends(TOPICS.deliveries)).toEqual(ends);
      // A second run finds nothing more to delete.
      expect(await trimPastRetention(db, physical, retention)).toEqual({ [TOPICS.deliveries]: 0, [TOPICS.deadLetters]: 0 });

      // Appends go on after the last offset, and a new consumer group reads from the first record kept.
      await append(log, TOPICS.deliveries, 'later', 1);
      const seen: string[] = [];
      const consumer = await log.consume({
        group: 'after-trim',
        topics: [TOPICS.deliveries],
        onBatch: async (batch) => void seen.push(...batch.map((r) => r.value.toString())),
      });
      for (let waited = 0; seen.length < 6 && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      await consumer.stop();
      expect(seen.sort()).toEqual(['later-0', 'new-0', 'new-1', 'new-2', 'new-3', 'new-4']);
    } finally {
      await log.close();
    }
  });

  it('trims when it opens, with the retention it is given', async () => {
    const namespace = uniqueNamespace('trim-start');
    const first = await createEmbeddedLog({ db, url, namespace });
    await append(first, TOPICS.deadLetters, 'stale', 3);
    await age(namespace, TOPICS.deadLetters, 2);
    await append(first, TOPICS.deadLetters, 'fresh', 2);
    await first.close();

    const reopened = await createEmbeddedLog({ db, url, namespace, retention: { [TOPICS.deadLetters]: HOUR } });
    try {
      for (let waited = 0; (await everything(reopened, TOPICS.deadLetters)).length > 2 && waited < 10_000; waited += 100)
        await new Promise((r) => setTimeout(r, 100));
      expect(await everything(reopened, TOPICS.deadLetters)).toEqual(['fresh-0', 'fresh-1']);
    } finally {
      await reopened.close();
    }
  });
});
