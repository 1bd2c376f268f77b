import { randomUUID } from 'node:crypto';
import { inTenant, sql, type ConnectionPool } from '@earshot/db';

/** Who acted: one of the tenant's API keys, or the operator (admin token). */
export type AuditActor = { kind: 'apiKey'; keyId: string; keyName: string } | { kind: 'operator' };

export interface AuditEntry {
  tenantId: string;
  actor: AuditActor;
  at: Date;
  /** What was done, e.g. `outcome.recorded`, `tenant.created`. */
  action: string;
  /** The id of what it was done to. */
  target: string | null;
  ip: string | null;
  requestId: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Records an entry as the tenant role, in a transaction scoped to the
 * entry's tenant: row-level security refuses an entry for any other tenant.
 */
export async function recordAudit(db: ConnectionPool, entry: AuditEntry): Promise<string> {
  const id = randomUUID();
  const { actor } = entry;
  await inTenant(db, entry.tenantId, (tx) =>
    tx.query(sql`
      insert into audit_entries (tenant_id, id, at, actor_kind, key_id, key_name, action, target, ip, request_id, detail)
      values (${entry.tenantId}, ${id}, ${entry.at}, ${actor.kind}, ${actor.kind === 'apiKey' ? actor.keyId : null}, ${actor.kind === 'apiKey' ? actor.keyName : null},
              ${entry.action}, ${entry.target}, ${entry.ip}, ${entry.requestId}, ${JSON.stringify(entry.detail ?? {})}::jsonb)`),
  );
  return id;
}
