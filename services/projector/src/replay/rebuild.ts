import { sql, TENANT_SETTING, type ConnectionPool, type Queryable } from '@earshot/db';
import type { ErasedCalls, KeyLookup } from '@earshot/events';
import { byPartition, type EventLog, type LogPosition, type LogRecord } from '@earshot/log';
import { deleteCallRows } from '@earshot/read-models';
import { PROJECTED_TOPICS } from '../projector';
import { createBatchApplier, type BatchOutcome } from '../store/apply-batch';
import { createFreshCopy, tablesOf } from './fresh-copy';
import { lostLockRace, readPositions, swapIfCaughtUp, type Positions } from './swap';

export interface RebuildProgress {
  phase: 'replaying' | 'catching up' | 'swapped';
  events: number;
  eventsPerSecond: number;
  /** Records in the log the copy has not applied yet. */
  lag: number;
}

export interface RebuildSummary {
  events: number;
  applied: number;
  duplicates: number;
  deadLettered: number;
  seconds: number;
  eventsPerSecond: number;
  tables: string[];
}

export interface RebuildOptions {
  db: ConnectionPool;
  log: EventLog;
  from: 'earliest' | Date;
  onProgress?: (progress: RebuildProgress) => void;
  /** Opens sealed events (DataKeys.lookup): those whose key is gone are passed over, so an erased tenant or call stays erased. */
  keys?: (keyIds: readonly string[]) => Promise<KeyLookup>;
  /** When calls were erased (DataKeys.erasedCalls): events of theirs appended in the clear before it stay out of the copy. */
  erasedCalls?: ErasedCalls;
  /** The calls erased since a time (DataKeys.erasedSince), asked in the swap's transaction. */
  erasedSince?: (tx: Queryable, since: Date) => Promise<{ tenantId: string; callId: string }[]>;
}

const PROGRESS_EVERY_MS = 1_000;
/** Swaps lost to a lock race before the rebuild gives up (and drops its copy): a race that keeps coming back is no race. */
const MAX_LOST_SWAPS = 5;

/**
 * Rebuilds every read model from the log into a fresh copy while the live
 * tables keep serving (and the live projector keeps writing them), follows
 * the log until the copy has caught up with the live positions, then swaps
 * the copy in, in one transaction.
 */
export async function rebuildReadModels({
  db,
  log,
  from,
  onProgress = () => undefined,
  keys,
  erasedCalls,
  erasedSince,
}: RebuildOptions): Promise<RebuildSummary> {
  const schema = `earshot_rebuild_${Date.now()}`;
  const [clock] = (await db.query(sql`select clock_timestamp() as now`)) as { now: Date }[];
  const began = clock?.now ?? new Date();
  const started = performance.now();
  const totals = { events: 0, applied: 0, duplicates: 0, deadLettered: 0 };
  const apply = createBatchApplier({ db, log, schema, keys, erasedCalls });
  const count = (outcome: BatchOutcome, records: number) => {
    totals.events += records;
    totals.applied += outcome.applied;
    totals.duplicates += outcome.duplicates;
    totals.deadLettered += outcome.deadLettered;
  };
  let lastReport = 0;
  const report = async (phase: RebuildProgress['phase'], force = false, copy = schema) => {
    if (!force && performance.now() - lastReport < PROGRESS_EVERY_MS) return;
    lastReport = performance.now();
    const seconds = (performance.now() - started) / 1_000;
    onProgress({ phase, events: totals.events, eventsPerSecond: Math.round(totals.events / Math.max(seconds, 1e-3)), lag: await lagOf(db, log, copy) });
  };

  await createFreshCopy(db, schema);
  try {
    const endsBefore = (await Promise.all(PROJECTED_TOPICS.map((t) => log.ends(t)))).flat();
    await log.replay({
      topics: PROJECTED_TOPICS,
      from,
      onBatch: async (records) => {
        count(await apply(records), records.length);
        await report('replaying');
      },
    });
    // A partition the replay found nothing in has nothing before its end of then either (from a time: nothing since).
    for (const end of endsBefore) {
      await db.query(
        sql`insert into ${sql.ident(schema)}.projector_positions (topic, partition, next_offset) values (${end.topic}, ${end.partition}, ${end.end}::bigint) on conflict do nothing`,
      );
    }

    const tables = await tablesOf(db, schema);
    const pending: LogRecord[] = [];
    const copyPositions = await readPositions(db, schema);
    const following = await log.subscribe({ topics: PROJECTED_TOPICS, from: lastSeen(copyPositions), onRecord: (record) => void pending.push(record) });
    let lostSwaps = 0;
    const orAgain = (error: unknown): null => {
      if (!lostLockRace(error) || ++lostSwaps > MAX_LOST_SWAPS) throw error;
      return null;
    };
    try {
      for (;;) {
        for (const batch of byPartition(pending.splice(0))) count(await apply(batch), batch.length);
        await report('catching up');
        if (await swapIfCaughtUp(db, schema, tables, sweepErased(began, erasedSince)).catch(orAgain).then(dropRetired(db))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await following.stop();
    }
    await report('swapped', true, 'public');
    const seconds = (performance.now() - started) / 1_000;
    return { ...totals, seconds, eventsPerSecond: Math.round(totals.events / Math.max(seconds, 1e-3)), tables };
  } catch (error) {
    await db.query(sql`drop schema if exists ${sql.ident(schema)} cascade`);
    throw error;
  }
}

/**
 * Deletes from the swapped-in copy the rows of calls erased since the rebuild
 * began: the erasure deleted the live rows, and the copy may have applied the
 * call's events before. Asked once the swap holds every table, so an erasure
 * that deleted live rows has committed, and a later one deletes from the copy.
 */
function sweepErased(began: Date, erasedSince: RebuildOptions['erasedSince']) {
  return async (tx: Queryable): Promise<void> => {
    for (const { tenantId, callId } of (await erasedSince?.(tx, began)) ?? []) {
      await tx.query(sql`select set_config(${TENANT_SETTING}, ${tenantId}, true)`);
      await deleteCallRows(tx, tenantId, callId);
    }
  };
}

function dropRetired(db: ConnectionPool) {
  return async (retired: string | null): Promise<boolean> => {
    if (retired === null) return false;
    await db.query(sql`drop schema ${sql.ident(retired)} cascade`);
    return true;
  };
}

/** Positions as a subscription resumes from them: the last record seen, one below the next to apply. */
function lastSeen(positions: Positions): LogPosition[] {
  return [...positions].map(([slot, next]) => {
    const cut = slot.lastIndexOf(':');
    return { topic: slot.slice(0, cut) as LogPosition['topic'], partition: Number(slot.slice(cut + 1)), offset: (next - 1n).toString() };
  });
}

async function lagOf(db: ConnectionPool, log: EventLog, schema: string): Promise<number> {
  const ends = (await Promise.all(PROJECTED_TOPICS.map((t) => log.ends(t)))).flat();
  const positions = await readPositions(db, schema);
  return ends.reduce((lag, e) => lag + Math.max(0, Number(BigInt(e.end) - (positions.get(`${e.topic}:${e.partition}`) ?? 0n))), 0);
}
