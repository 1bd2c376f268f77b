import { sql, type Queryable } from '@earshot/db';
import type { EventLog, TopicName } from '@earshot/log';
import type { LagSource, PartitionLag } from '@earshot/telemetry';

/** The tables where a consumer stores, with its effects, the next offset of each partition it read. */
export type PositionsTable = 'projector_positions' | 'audit_positions';

/**
 * A consumer's lag read where its positions live (Postgres, committed with
 * its effects), against the log's ends: the whole group's lag, so any one
 * process of it reports every partition, and a partition never read counts
 * from offset 0.
 */
export function lagFromPositions(db: Queryable, log: EventLog, table: PositionsTable, topics: readonly TopicName[]): LagSource {
  return async () => {
    const rows = (await db.query(sql`select topic, partition, next_offset::text as next from ${sql.ident(table)}`)) as {
      topic: string;
      partition: number;
      next: string;
    }[];
    const stored = new Map(rows.map((row) => [`${row.topic}:${row.partition}`, BigInt(row.next)]));
    const lags: PartitionLag[] = [];
    for (const topic of topics) {
      for (const { partition, end } of await log.ends(topic)) {
        const behind = BigInt(end) - (stored.get(`${topic}:${partition}`) ?? 0n);
        lags.push({ topic, partition, lag: Number(behind > 0n ? behind : 0n) });
      }
    }
    return lags;
  };
}
