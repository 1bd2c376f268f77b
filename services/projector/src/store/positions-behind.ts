import { sql, type ConnectionPool } from '@earshot/db';
import type { LogRecord } from '@earshot/log';

/**
 * The next offsets this process committed, per partition, to tell when the
 * stored ones went back behind them: a Postgres restored from a backup, or
 * one that lost its last commits. A partition with new records finds out
 * from its next batch (ReadAgain); one without any would keep its hole.
 */
export class CommittedPositions {
  private readonly next = new Map<string, { topic: string; partition: number; next: bigint }>();

  committed(records: readonly LogRecord[]): void {
    const last = records[records.length - 1];
    if (last) this.next.set(`${last.topic}:${last.partition}`, { topic: last.topic, partition: last.partition, next: BigInt(last.offset) + 1n });
  }

  /** The partitions whose stored position is behind what this process committed (forgotten, as the log will read them again). */
  async behind(db: ConnectionPool): Promise<string[]> {
    if (this.next.size === 0) return [];
    const rows = (await db.query(sql`select topic, partition, next_offset::text as next from projector_positions`)) as {
      topic: string;
      partition: number;
      next: string;
    }[];
    const stored = new Map(rows.map((row) => [`${row.topic}:${row.partition}`, BigInt(row.next)]));
    const behind = [...this.next].filter(([slot, mine]) => (stored.get(slot) ?? 0n) < mine.next).map(([slot]) => slot);
    for (const slot of behind) this.next.delete(slot);
    return behind;
  }
}
