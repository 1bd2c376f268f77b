import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type ConnectionPool } from '@earshot/db';
import type { LogPosition } from '@earshot/log';

const POLL_MS = 20;

/**
 * Waits until the projector has applied the event at `position` (its next
 * offset on that partition is past it), so a client that reads what it just
 * wrote finds it; at most `withinMs`, after which the write is answered
 * anyway (it is on the log, and the read models will have it once the
 * projector catches up).
 */
export async function untilApplied(db: ConnectionPool, position: LogPosition, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const [row] = (await db.query(
      sql`select next_offset > ${position.offset}::bigint as applied from projector_positions where topic = ${position.topic} and partition = ${position.partition}`,
    )) as { applied: boolean }[];
    if (row?.applied) return;
    await sleep(POLL_MS);
  }
}
