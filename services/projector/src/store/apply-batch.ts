import { sql, sqlState, type ConnectionPool, type Queryable } from '@earshot/db';
import { EVENT_HEADERS, type ErasableCall, type ErasedAt, type ErasedCalls, type KeyLookup } from '@earshot/events';
import type { EventLog, LogRecord } from '@earshot/log';
import { deadLetterOf } from '../dead-letters';
import { decodeBatch } from '../erased-calls';
import { claimPosition, savePosition } from './positions';
import { foldRecords, TenantFold, type FoldedBatch } from './tenant-fold';
import { ConcurrentWrite, writeTenants, type Refold, type Tx } from './write-tenant';

/** Taken shared by every live batch and exclusively by a replay's swap, so the swap sees the live positions standing still. */
export const SWAP_LOCK = 7_420_260_404;
const PROJECTOR_ROLE = 'earshot_projector';

/** A key the batch was opened with was destroyed, or a call it named erased, since: the batch is opened again. */
class ErasedSinceOpened extends Error {}

export interface BatchApplierOptions {
  db: ConnectionPool;
  /** Where dead letters go. */
  log: EventLog;
  /** Schema of a replay's fresh copy of the read models; the live tables when absent. */
  schema?: string;
  /** Tries per event before it is dead-lettered (database failures only; pure failures are dead-lettered at once). */
  maxTries?: number;
  now?: () => Date;
  /** Told about each failed attempt (a database outage retries until it ends or the projector stops). */
  onRetry?: (error: unknown) => void;
  isStopping?: () => boolean;
  /** The data keys a batch's sealed events name (DataKeys.lookup); without it, a sealed event reads as erased. */
  keys?: (keyIds: readonly string[]) => Promise<KeyLookup>;
  /**
   * Holds the keys a batch was opened with against erasure for its transaction, answering those still there
   * (DataKeys.hold); a batch whose keys went meanwhile is opened again. Without it, a call erased between a batch's
   * key lookup and its commit keeps the rows the batch wrote.
   */
  holdKeys?: (tx: Queryable, keyIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /** When calls were erased (DataKeys.erasedCalls), for events appended in the clear; without it they are all projected. */
  erasedCalls?: ErasedCalls;
  /**
   * Holds off erasures of the calls a batch's events in the clear name, for its transaction, answering when each was
   * erased (DataKeys.holdErasures); a batch that finds one erased since it asked is opened again. holdKeys' twin for
   * what no key reaches.
   */
  holdErasures?: (tx: Queryable, calls: readonly ErasableCall[]) => Promise<ErasedAt>;
  /**
   * Whether the log reads a partition again when asked (a live consumer's ReadAgain); a replay cannot, so a batch
   * beyond the stored position is applied at once, its gap counted as missing.
   */
  readsAgain?: boolean;
}

export interface BatchOutcome {
  /** Records below the stored position: applied before, re-delivered by the log. */
  skipped: number;
  applied: number;
  /** Events whose tenant and idempotency key were already applied. */
  duplicates: number;
  deadLettered: number;
  /** Events sealed with a destroyed key: passed over. */
  erased: number;
  /**
   * Offsets between the partition's stored position and this batch's first
   * record, which the read models never took: trimmed by the log's retention
   * before they were read. (A database restored to an older position reads
   * its missing records again, while the log still holds them: the projector
   * starts each partition at its stored position, and asks the log to read a
   * running one again from it: `readFrom`.)
   */
  missing: number;
  /**
   * The partition's stored position when it is behind the batch and the log
   * may still hold what lies between (a database restored while running, or
   * commits lost in a crash): nothing was applied, and the log is to read the
   * partition again from here. Asked once per position: a batch that still
   * starts beyond it was trimmed, and is applied with its gap as missing.
   */
  readFrom?: string;
}

/** Failures that say nothing about the event: lost connection, lock conflict, server shutting down. */
function isTransient(error: unknown): boolean {
  if (error instanceof ConcurrentWrite) return true;
  const state = sqlState(error);
  return state === undefined || ['08', '40', '53', '55', '57', '58'].includes(state.slice(0, 2));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Decode = Parameters<typeof foldRecords>[1];

/** A batch opened, and what it was opened with: its keys, and its calls' erasures. */
interface Decoding {
  decode: Decode;
  folded: FoldedBatch;
  opened: readonly string[];
  /** The calls its events in the clear name, and when each was erased as the batch was opened. */
  asked: readonly AskedCall[];
}

type AskedCall = ErasableCall & { erasedAt: number | undefined };

/** Folds again without the records of the keys named, with the same keys to open sealed events. */
const refoldWith =
  (decode: Decode): Refold =>
  (fold, appliedBefore) =>
    foldRecords(
      [...fold.records].filter(([key]) => !appliedBefore.has(key)).map(([, record]) => record),
      decode,
    ).tenants.get(fold.tenantId) ?? new TenantFold(fold.tenantId, fold.shard);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies a batch of one partition's records effectively once: the rows and
 * the partition's next offset commit in one Postgres transaction, records
 * below the stored offset are skipped, repeated events change nothing, and a
 * record that cannot be applied goes to the dead-letter topic (before the
 * commit, so a crash re-sends it rather than losing it) while the rest go on.
 */
export function createBatchApplier(options: BatchApplierOptions): (records: readonly LogRecord[]) => Promise<BatchOutcome> {
  const {
    db,
    log,
    schema,
    maxTries = 3,
    now = () => new Date(),
    onRetry = () => undefined,
    isStopping = () => false,
    keys,
    holdKeys,
    erasedCalls,
    holdErasures,
    readsAgain = false,
  } = options;
  /** Per partition, the stored position the log was last asked to read it again from. */
  const readingAgainFrom = new Map<string, bigint>();

  async function begin(tx: Tx, { opened, asked }: Decoding): Promise<void> {
    // Erasures before keys: an erasure takes its tenant's lock before it deletes the key, so both wait in one order.
    if (holdErasures && asked.length > 0) {
      const now = await holdErasures(tx, asked);
      if (asked.some((call) => now(call.tenantId, call.callId) !== call.erasedAt)) throw new ErasedSinceOpened();
    }
    if (holdKeys && opened.length > 0) {
      const held = await holdKeys(tx, opened);
      if (opened.some((id) => !held.has(id))) throw new ErasedSinceOpened();
    }
    await tx.query(sql`set local role ${sql.ident(PROJECTOR_ROLE)}`);
    if (schema) await tx.query(sql`select set_config('search_path', ${`${schema}, public`}, true)`);
    else await tx.query(sql`select pg_advisory_xact_lock_shared(${SWAP_LOCK})`);
  }

  /** Event by event, each in a savepoint, so one that cannot be written goes to the dead letters alone. */
  async function applyOneByOne(tx: Tx, records: readonly LogRecord[], decode: Decode, poison: FoldedBatch['poison']): Promise<number> {
    let applied = 0;
    for (const record of records) {
      const { tenants } = foldRecords([record], decode);
      if (tenants.size === 0) continue;
      let lastError: unknown;
      let done = false;
      for (let attempt = 1; attempt <= maxTries && !done; attempt++) {
        await tx.query(sql`savepoint projector_event`);
        try {
          applied += await writeTenants(tx, [...tenants.values()], refoldWith(decode));
          await tx.query(sql`release savepoint projector_event`);
          done = true;
        } catch (error) {
          if (isTransient(error)) throw error;
          await tx.query(sql`rollback to savepoint projector_event`);
          lastError = error;
        }
      }
      if (!done) poison.push({ record, poison: `could not be projected after ${maxTries} tries: ${messageOf(lastError)}` });
    }
    return applied;
  }

  async function applyInTransaction(tx: Tx, records: readonly LogRecord[], decoding: Decoding, oneByOne: boolean): Promise<BatchOutcome> {
    const { decode, folded } = decoding;
    await begin(tx, decoding);
    const first = records[0];
    const last = records[records.length - 1];
    if (!first || !last) return { skipped: 0, applied: 0, duplicates: 0, deadLettered: 0, erased: 0, missing: 0 };
    const { topic, partition } = first;
    const next = await claimPosition(tx, topic, partition);
    const fresh = records.filter((r) => BigInt(r.offset) >= next);
    if (fresh.length === 0) return { skipped: records.length, applied: 0, duplicates: 0, deadLettered: 0, erased: 0, missing: 0 };
    const missing = BigInt(first.offset) > next ? Number(BigInt(first.offset) - next) : 0;
    if (missing > 0 && readsAgain && readingAgainFrom.get(`${topic}:${partition}`) !== next)
      return { skipped: 0, applied: 0, duplicates: 0, deadLettered: 0, erased: 0, missing: 0, readFrom: next.toString() };

    // Folded before the transaction on the likely guess that every record is new; a log re-delivering some folds again.
    const { tenants, poison, erased } = fresh.length === records.length ? folded : foldRecords(fresh, decode);
    const deadLetters = [...poison];
    const applied = oneByOne ? await applyOneByOne(tx, fresh, decode, deadLetters) : await writeTenants(tx, [...tenants.values()], refoldWith(decode));
    if (deadLetters.length > 0) await log.append(deadLetters.map((p) => deadLetterOf(p.record, p.poison, now())));
    await savePosition(tx, topic, partition, BigInt(last.offset) + 1n);
    return {
      skipped: records.length - fresh.length,
      applied,
      duplicates: fresh.length - deadLetters.length - erased - applied,
      deadLettered: deadLetters.length,
      erased,
      missing,
    };
  }

  return async (records) => {
    const sealedWith = records.flatMap((r) => r.headers[EVENT_HEADERS.sealedWith] ?? []);
    let decoding: Decoding | undefined;
    let failures = 0;
    for (;;) {
      // After maxTries failed attempts of the whole batch, events go one by one so a bad one cannot hold up the rest.
      const oneByOne = failures >= maxTries;
      try {
        if (decoding === undefined) {
          // Fetched in the retry loop: the key store is the database, and an outage waits like any other.
          const lookup = keys && sealedWith.length > 0 ? await keys(sealedWith) : undefined;
          const asked: AskedCall[] = [];
          const asking: ErasedCalls | undefined =
            erasedCalls &&
            (async (calls) => {
              const at = await erasedCalls(calls);
              asked.push(...calls.map((call) => ({ ...call, erasedAt: at(call.tenantId, call.callId) })));
              return at;
            });
          const opened = lookup ? [...new Set(sealedWith)].filter((id) => lookup(id) !== undefined) : [];
          decoding = { ...(await decodeBatch(records, lookup, asking)), opened, asked };
        }
        const opening = decoding;
        const outcome = await db.tx((tx) => applyInTransaction(tx, records, opening, oneByOne));
        const slot = `${records[0]?.topic}:${records[0]?.partition}`;
        if (outcome.readFrom === undefined) readingAgainFrom.delete(slot);
        else readingAgainFrom.set(slot, BigInt(outcome.readFrom));
        return outcome;
      } catch (error) {
        if (error instanceof ErasedSinceOpened) {
          decoding = undefined;
          continue;
        }
        failures += 1;
        onRetry(error);
        if (isStopping()) throw error;
        if (!isTransient(error)) failures = Math.max(failures, maxTries);
        await sleep(Math.min(25 * 2 ** Math.min(failures, 8), 5_000));
      }
    }
  };
}
