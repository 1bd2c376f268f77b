import type { ConnectionPool, SQLQuery, Transaction } from '@databases/pg';
import { sql } from '@databases/pg';
import { TENANT_SETTING } from './tenant-scope';

/**
 * The role the platform's cross-tenant work runs as (the key lookup before a
 * tenant is known, idempotency claims and audit rows batched across tenants,
 * the operator's lists, data keys by id). Like the tenant role it cannot
 * bypass row-level security: it sees every row only of the tables whose
 * policy names it (packages/db/migrations/0003_platform_role.sql).
 */
export const PLATFORM_ROLE = 'earshot_platform';

/** Each pool's own pool of sessions that start as the platform role, opened on first use (openDatabase attaches it). */
const platformPools = new WeakMap<ConnectionPool, () => Promise<ConnectionPool>>();

/**
 * The opened platform pool, once a session of it answers as the platform role: a pooler that dropped the startup
 * option would leave them the owner's, whom forced row-level security shows nothing, so every cross-tenant read would
 * come back empty without an error.
 */
async function asPlatform(pool: ConnectionPool): Promise<ConnectionPool> {
  const [session] = (await pool.query(sql`select current_user as role`).catch(async (error: unknown) => {
    await pool.dispose();
    throw error;
  })) as { role: string }[];
  if (session?.role === PLATFORM_ROLE) return pool;
  await pool.dispose();
  throw new Error(
    `connections opened as ${PLATFORM_ROLE} run as ${session?.role ?? 'nobody'}: something between Earshot and PostgreSQL dropped the startup option "-c role=${PLATFORM_ROLE}" (deploy/README.md)`,
  );
}

/**
 * Gives `pool` a second pool whose sessions run as the platform role from their start (`-c role=…`), so one platform
 * statement is one round trip: switched to per transaction instead, it was four (begin, role, statement, commit),
 * ~80 µs of the caller's CPU, and the group statement of every ingest's idempotency claims was one. Disposing `pool`
 * disposes it too.
 */
export function attachPlatformPool(pool: ConnectionPool, open: () => ConnectionPool): ConnectionPool {
  let platform: Promise<ConnectionPool> | undefined;
  platformPools.set(pool, () => {
    // A failed first use (the database not up yet) is tried again by the next.
    platform ??= asPlatform(open()).catch((error: unknown) => {
      platform = undefined;
      throw error;
    });
    return platform;
  });
  const dispose = pool.dispose.bind(pool);
  pool.dispose = async () => {
    await (await platform?.catch(() => undefined))?.dispose();
    await dispose();
  };
  return pool;
}

/** The pool's platform pool: every pool comes from openDatabase, which attaches one. */
function platformOf(db: ConnectionPool): Promise<ConnectionPool> {
  const platform = platformPools.get(db);
  if (!platform) throw new Error('a pool not opened by openDatabase has no sessions as the platform role');
  return platform();
}

/** Runs `work` in a transaction as the platform role, on a session that is that role: nothing of it reaches the caller's pool. */
export async function inPlatform<T>(db: ConnectionPool, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return (await platformOf(db)).tx(work);
}

/** One statement as the platform role: its own transaction, one round trip. */
export async function platformQuery(db: ConnectionPool, query: SQLQuery): Promise<unknown[]> {
  return (await platformOf(db)).query(query);
}

/**
 * Runs `work` in a transaction as the connecting role (the tables' owner)
 * with the tenant set, for the operator side's work on one tenant: forced
 * row-level security shows the owner that tenant's rows and no other's.
 */
export function ownerInTenant<T>(db: ConnectionPool, tenantId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.tx(async (tx) => {
    await tx.query(sql`select set_config(${TENANT_SETTING}, ${tenantId}, true)`);
    return work(tx);
  });
}
