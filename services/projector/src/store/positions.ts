import { sql, type ConnectionPool } from '@earshot/db';
import type { Tx } from './write-tenant';

/**
 * Claims a partition's position for this transaction: the row stays locked
 * until commit, so two projectors handed the same partition (a rebalance)
 * apply its records one after the other, the second skipping what the first did.
 */
export async function claimPosition(tx: Tx, topic: string, partition: number): Promise<bigint> {
  const [row] = (await tx.query(sql`
    insert into projector_positions (topic, partition, next_offset) values (${topic}, ${partition}, 0)
    on conflict (topic, partition) do update set next_offset = projector_positions.next_offset
    returning next_offset::text as next_offset`)) as { next_offset: string }[];
  return BigInt(row?.next_offset ?? '0');
}

export async function savePosition(tx: Tx, topic: string, partition: number, next: bigint): Promise<void> {
  await tx.query(
    sql`update projector_positions set next_offset = ${next.toString()}::bigint, updated_at = now() where topic = ${topic} and partition = ${partition}`,
  );
}

/**
 * Where the log should start a partition for this projector: the next offset
 * the read models stored, so a database restored to an older position than
 * the consumer group's reads its missing records again; a partition never
 * stored starts at the beginning of what the log holds.
 */
export async function startPosition(db: ConnectionPool, topic: string, partition: number): Promise<string> {
  const [row] = (await db.query(sql`
    select next_offset::text as next_offset from projector_positions where topic = ${topic} and partition = ${partition}`)) as { next_offset: string }[];
  return row?.next_offset ?? '0';
}
