import { sql, type ConnectionPool, type Transaction } from '@databases/pg';

/**
 * The role that tenant-scoped work runs as: neither owner, superuser nor
 * BYPASSRLS, so row-level security, not application code, keeps tenants apart.
 */
export const TENANT_ROLE = 'earshot_app';

/** The setting every row-level security policy reads. */
export const TENANT_SETTING = 'earshot.tenant_id';

/**
 * Runs `work` in a transaction as the tenant role with the tenant set for
 * that transaction only (`set_config(..., true)`), so nothing leaks to the
 * next user of the pooled connection. Role and tenant are set in one
 * statement (`set_config('role', …, true)` is SET LOCAL ROLE): every round
 * trip here is paid by every tenant request.
 */
export function inTenant<T>(db: ConnectionPool, tenantId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.tx(async (tx) => {
    await tx.query(sql`select set_config('role', ${TENANT_ROLE}, true), set_config(${TENANT_SETTING}, ${tenantId}, true)`);
    return work(tx);
  });
}

/** Switches the tenant inside a transaction that already runs as the tenant role (the projector's batches). */
export async function switchTenant(tx: Transaction, tenantId: string): Promise<void> {
  await tx.query(sql`select set_config(${TENANT_SETTING}, ${tenantId}, true)`);
}
