import { sql, sqlState, type ConnectionPool, type Queryable } from '@earshot/db';
import { SWAP_LOCK } from '../store/apply-batch';

export type Positions = Map<string, bigint>;

export async function readPositions(db: Queryable, schema: string): Promise<Positions> {
  const rows = (await db.query(sql`select topic, partition, next_offset::text as next_offset from ${sql.ident(schema)}.projector_positions`)) as {
    topic: string;
    partition: number;
    next_offset: string;
  }[];
  return new Map(rows.map((r) => [`${r.topic}:${r.partition}`, BigInt(r.next_offset)]));
}

/** Postgres's deadlock_detected and lock_not_available: the swap's transaction rolled back whole, the copy untouched. */
const LOCK_RACES = new Set(['40P01', '55P03']);

/**
 * Whether a swap failed for a lock it lost, not for what it holds: a writer
 * that took tables in another order (an erasure deleting a call's rows table
 * by table) or held one past the lock timeout. Swapping again can succeed.
 */
export function lostLockRace(error: unknown): boolean {
  return LOCK_RACES.has(sqlState(error) ?? '');
}

/** Whether the copy has applied at least everything the live read models have. */
function covers(copy: Positions, live: Positions): boolean {
  return [...live].every(([slot, next]) => (copy.get(slot) ?? 0n) >= next);
}

/**
 * Swaps the copy in for the live tables in one transaction, if the copy has
 * caught up with them. The exclusive swap lock waits for the live projector's
 * batch in hand and holds off its next one, so the live positions stand still
 * while they are compared; the projector's next batch then writes to the new
 * tables, skipping what the copy already applied. Readers see the old tables
 * or the new ones, never neither. Answers the retired schema, or null when the
 * copy is still behind.
 */
export async function swapIfCaughtUp(
  db: ConnectionPool,
  schema: string,
  tables: readonly string[],
  /** Runs in the swap's transaction once the copy is the live tables, before it commits. */
  swapped: (tx: Queryable) => Promise<void> = async () => undefined,
): Promise<string | null> {
  const retired = `${schema}_retired`;
  return db.tx(async (tx) => {
    await tx.query(sql`set local lock_timeout = '10s'`);
    await tx.query(sql`select pg_advisory_xact_lock(${SWAP_LOCK})`);
    if (!covers(await readPositions(tx, schema), await readPositions(tx, 'public'))) return null;
    await tx.query(sql`create schema ${sql.ident(retired)}`);
    for (const table of tables) {
      await tx.query(sql`alter table public.${sql.ident(table)} set schema ${sql.ident(retired)}`);
      await tx.query(sql`alter table ${sql.ident(schema)}.${sql.ident(table)} set schema public`);
    }
    await swapped(tx);
    await tx.query(sql`drop schema ${sql.ident(schema)}`);
    return retired;
  });
}
