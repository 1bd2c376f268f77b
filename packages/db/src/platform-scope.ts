import { sql, type ConnectionPool, type SQLQuery, type Transaction } from '@databases/pg';
import { TENANT_SETTING } from './tenant-scope';

/**
 * The role the platform's cross-tenant work runs as (the key lookup before a
 * tenant is known, idempotency claims and audit rows batched across tenants,
 * the operator's lists, data keys by id). Like the tenant role it cannot
 * bypass row-level security: it sees every row only of the tables whose
 * policy names it (packages/db/migrations/0003_platform_role.sql).
 */
export const PLATFORM_ROLE = 'earshot_platform';

/** Runs `work` in a transaction as the platform role; the role ends with the transaction, so the pooled connection goes back as it came. */
export function inPlatform<T>(db: ConnectionPool, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.tx(async (tx) => {
    await tx.query(sql`select set_config('role', ${PLATFORM_ROLE}, true)`);
    return work(tx);
  });
}

/** One statement as the platform role. */
export function platformQuery(db: ConnectionPool, query: SQLQuery): Promise<unknown[]> {
  return inPlatform(db, (tx) => tx.query(query));
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
