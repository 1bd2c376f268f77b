import { sql, type ConnectionPool } from '@earshot/db';
import type { Logger } from '@earshot/telemetry';
import type { TopicRetention } from '../kafka/topic-retention';
import type { TopicName } from '../topics';

/** How often the embedded log trims: Kafka's log cleaner looks every five minutes (log.retention.check.interval.ms). */
const TRIM_INTERVAL_MS = 300_000;
const BATCH = 5_000;

/**
 * Deletes the embedded log's records stored longer ago than their topic's
 * retention, as Kafka drops whole segments past retention.ms: offsets stay
 * where they are, and readers skip the gap. In batches, so no transaction
 * holds a large delete. Answers the records deleted, by topic.
 */
export async function trimPastRetention(
  db: ConnectionPool,
  physical: (topic: TopicName) => string,
  retention: TopicRetention,
  now: Date = new Date(),
): Promise<Partial<Record<TopicName, number>>> {
  const trimmed: Partial<Record<TopicName, number>> = {};
  for (const [topic, keep] of Object.entries(retention) as [TopicName, number | 'forever'][]) {
    if (keep === 'forever') continue;
    const cutoff = new Date(now.getTime() - keep);
    let deleted = 0;
    for (;;) {
      const rows = await db.query(sql`
        delete from earshot_log.records where ctid = any(array(
          select ctid from earshot_log.records where topic = ${physical(topic)} and stored_at < ${cutoff} limit ${BATCH}))
        returning 1`);
      deleted += rows.length;
      if (rows.length < BATCH) break;
    }
    trimmed[topic] = deleted;
  }
  return trimmed;
}

/** Trims at once and then every TRIM_INTERVAL_MS until stopped; a failed trim is reported and tried again next time. */
export function startTrimming(
  db: ConnectionPool,
  physical: (topic: TopicName) => string,
  retention: TopicRetention,
  logger: Logger,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const trim = () => {
    running = trimPastRetention(db, physical, retention)
      .then((trimmed) => {
        if (Object.values(trimmed).some((n) => n > 0)) logger.info({ trimmed }, 'embedded log: records past retention deleted');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'embedded log: trimming past retention failed'));
  };
  trim();
  const timer = setInterval(trim, TRIM_INTERVAL_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
