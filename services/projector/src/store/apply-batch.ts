import { sql, type ConnectionPool } from '@earshot/db';
import { EVENT_HEADERS, type KeyLookup } from '@earshot/events';
import type { EventLog, LogRecord } from '@earshot/log';
import { deadLetterOf } from '../dead-letters';
import { decodeRecord, type Decoded } from '../decode-record';
import type { Derived } from '../effects';
import { claimPosition, savePosition } from './positions';
import { ConcurrentWrite, writeTenants, type Tx } from './write-tenant';

/** Taken shared by every live batch and exclusively by a replay's swap, so the swap sees the live positions standing still. */
export const SWAP_LOCK = 7_420_260_404;
const PROJECTOR_ROLE = 'earshot_projector';

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
}

/** Failures that say nothing about the event: lost connection, lock conflict, server shutting down. */
function isTransient(error: unknown): boolean {
  if (error instanceof ConcurrentWrite) return true;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return !/^[0-9A-Z]{5}$/.test(code) || ['08', '40', '53', '55', '57', '58'].includes(code.slice(0, 2));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies a batch of one partition's records effectively once: the rows and
 * the partition's next offset commit in one Postgres transaction, records
 * below the stored offset are skipped, repeated events change nothing, and a
 * record that cannot be applied goes to the dead-letter topic (before the
 * commit, so a crash re-sends it rather than losing it) while the rest go on.
 */
export function createBatchApplier(options: BatchApplierOptions): (records: readonly LogRecord[]) => Promise<BatchOutcome> {
  const { db, log, schema, maxTries = 3, now = () => new Date(), onRetry = () => undefined, isStopping = () => false, keys } = options;

  async function begin(tx: Tx): Promise<void> {
    await tx.query(sql`set local role ${sql.ident(PROJECTOR_ROLE)}`);
    if (schema) await tx.query(sql`select set_config('search_path', ${`${schema}, public`}, true)`);
    else await tx.query(sql`select pg_advisory_xact_lock_shared(${SWAP_LOCK})`);
  }

  async function applyOneByOne(tx: Tx, good: { record: LogRecord; derived: Derived }[], poison: { record: LogRecord; poison: string }[]): Promise<number> {
    let applied = 0;
    for (const { record, derived } of good) {
      let lastError: unknown;
      let done = false;
      for (let attempt = 1; attempt <= maxTries && !done; attempt++) {
        await tx.query(sql`savepoint projector_event`);
        try {
          applied += await writeTenants(tx, [[derived.tenantId, [derived]]]);
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

  async function applyInTransaction(tx: Tx, decoded: readonly Decoded[], oneByOne: boolean): Promise<BatchOutcome> {
    await begin(tx);
    const first = decoded[0];
    const last = decoded[decoded.length - 1];
    if (!first || !last) return { skipped: 0, applied: 0, duplicates: 0, deadLettered: 0, erased: 0 };
    const { topic, partition } = first.record;
    const next = await claimPosition(tx, topic, partition);
    const fresh = decoded.filter((d) => BigInt(d.record.offset) >= next);
    if (fresh.length === 0) return { skipped: decoded.length, applied: 0, duplicates: 0, deadLettered: 0, erased: 0 };

    const poison = fresh.filter((d): d is Extract<Decoded, { poison: string }> => 'poison' in d);
    const good = fresh.filter((d): d is Extract<Decoded, { derived: Derived }> => 'derived' in d);
    const erased = fresh.filter((d) => 'erased' in d).length;
    let applied: number;
    if (oneByOne) {
      applied = await applyOneByOne(tx, good, poison);
    } else {
      const byTenant = new Map<string, Derived[]>();
      for (const { derived } of good) {
        const mine = byTenant.get(derived.tenantId);
        if (mine) mine.push(derived);
        else byTenant.set(derived.tenantId, [derived]);
      }
      applied = await writeTenants(tx, [...byTenant]);
    }
    if (poison.length > 0) await log.append(poison.map((p) => deadLetterOf(p.record, p.poison, now())));
    await savePosition(tx, topic, partition, BigInt(last.record.offset) + 1n);
    return {
      skipped: decoded.length - fresh.length,
      applied,
      duplicates: fresh.length - poison.length - erased - applied,
      deadLettered: poison.length,
      erased,
    };
  }

  return async (records) => {
    const sealedWith = records.flatMap((r) => r.headers[EVENT_HEADERS.sealedWith] ?? []);
    let decoded: Decoded[] | undefined;
    let failures = 0;
    for (;;) {
      // After maxTries failed attempts of the whole batch, events go one by one so a bad one cannot hold up the rest.
      const oneByOne = failures >= maxTries;
      try {
        if (decoded === undefined) {
          // Fetched in the retry loop: the key store is the database, and an outage waits like any other.
          const lookup = keys && sealedWith.length > 0 ? await keys(sealedWith) : undefined;
          decoded = records.map((record) => decodeRecord(record, lookup));
        }
        const batch = decoded;
        return await db.tx((tx) => applyInTransaction(tx, batch, oneByOne));
      } catch (error) {
        failures += 1;
        onRetry(error);
        if (isStopping()) throw error;
        if (!isTransient(error)) failures = Math.max(failures, maxTries);
        await sleep(Math.min(25 * 2 ** Math.min(failures, 8), 5_000));
      }
    }
  };
}
