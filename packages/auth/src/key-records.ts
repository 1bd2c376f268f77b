import { randomUUID } from 'node:crypto';
import type { ApiKeyRecord, KeyStatus } from '@earshot/contracts';
import { ownerInTenant, sql, type ConnectionPool, type Queryable, type SQLQuery } from '@earshot/db';
import { issueApiKey, type KeyEnvironment, type Scope } from './api-key';
import { noteCredentialChange } from './credential-changes';

/** Who created a key: another key of the tenant, or the operator. */
export type KeyCreator = { kind: 'apiKey'; keyId: string } | { kind: 'operator' };

export interface NewApiKey {
  tenantId: string;
  name: string;
  scopes: readonly Scope[];
  environment: KeyEnvironment;
  workspace: string;
  /** Addresses or CIDRs; empty means any address. */
  ipAllowlist: readonly string[];
  expiresAt: Date | null;
  createdBy: KeyCreator;
}

/** A record and the key itself, which is shown this once and stored only as its hash. */
export interface IssuedKeyRecord {
  record: ApiKeyRecord;
  secret: string;
}

/** Where a page of keys starts: after this key in newest-first order. */
export interface KeyPosition {
  createdAt: string;
  id: string;
}

export interface KeyFilter {
  workspace?: string;
  status?: KeyStatus;
  after?: KeyPosition;
  offset?: number;
  limit: number;
}

interface RecordRow {
  id: string;
  name: string;
  display_prefix: string;
  scopes: Scope[];
  environment: KeyEnvironment;
  ip_allowlist: string[];
  last_used_at: Date | null;
  usage_24h: number;
  status: KeyStatus;
  workspace: string;
  expires_at: Date | null;
  previous_key_expires_at: Date | null;
  created_at: Date;
  created_by_kind: 'apiKey' | 'operator';
  created_by_key_id: string | null;
  revoked_at: Date | null;
}

/** The tenant's keys as records at `now` (times to the millisecond, as cursors carry them): the status follows revocation, expiry and the rotation overlap; usage sums the last 1,440 minutes. */
function records(tenantId: string, now: Date): SQLQuery {
  return sql`
    select * from (
      select k.id, k.name, k.display_prefix, k.scopes, k.environment, k.ip_allowlist::text[] as ip_allowlist, k.last_used_at,
             (select coalesce(sum(u.requests), 0)::int from api_key_usage u where u.key_id = k.id and u.minute > ${now}::timestamptz - interval '24 hours') as usage_24h,
             case when k.status = 'revoked' then 'revoked'
                  when k.expires_at <= ${now} then 'expired'
                  when k.previous_key_expires_at > ${now} then 'rotating'
                  else 'active' end as status,
             k.workspace, k.expires_at,
             case when k.previous_key_expires_at > ${now} then k.previous_key_expires_at end as previous_key_expires_at,
             date_trunc('milliseconds', k.created_at) as created_at, k.created_by_kind, k.created_by_key_id, k.revoked_at
        from api_keys k where k.tenant_id = ${tenantId}
    ) r`;
}

function recordOf(row: RecordRow): ApiKeyRecord {
  const iso = (at: Date | null) => (at === null ? null : at.toISOString());
  return {
    id: row.id,
    name: row.name,
    prefix: row.display_prefix,
    scopes: row.scopes,
    environment: row.environment,
    ipAllowlist: row.ip_allowlist,
    lastUsedAt: iso(row.last_used_at),
    usage24h: row.usage_24h,
    status: row.status,
    workspace: row.workspace,
    expiresAt: iso(row.expires_at),
    previousSecretValidUntil: iso(row.previous_key_expires_at),
    createdAt: row.created_at.toISOString(),
    createdBy: { kind: row.created_by_kind, keyId: row.created_by_key_id },
    revokedAt: iso(row.revoked_at),
  };
}

async function recordIn(tx: Queryable, tenantId: string, id: string, now: Date): Promise<ApiKeyRecord | undefined> {
  const [row] = (await tx.query(sql`${records(tenantId, now)} where r.id = ${id}`)) as RecordRow[];
  return row && recordOf(row);
}

/** Keys force row-level security, so each function here works on one tenant's keys as the owner with that tenant set. */
export function getApiKey(db: ConnectionPool, tenantId: string, id: string, now: Date): Promise<ApiKeyRecord | undefined> {
  return ownerInTenant(db, tenantId, (tx) => recordIn(tx, tenantId, id, now));
}

/** Newest first, after a position (cursor) or from an offset (page numbers). */
export async function listApiKeys(db: ConnectionPool, tenantId: string, filter: KeyFilter, now: Date): Promise<ApiKeyRecord[]> {
  const conditions = [
    filter.workspace === undefined ? sql`true` : sql`r.workspace = ${filter.workspace}`,
    filter.status === undefined ? sql`true` : sql`r.status = ${filter.status}`,
    filter.after === undefined ? sql`true` : sql`(r.created_at, r.id) < (${filter.after.createdAt}::timestamptz, ${filter.after.id}::uuid)`,
  ];
  const rows = (await ownerInTenant(db, tenantId, (tx) =>
    tx.query(sql`
      ${records(tenantId, now)} where ${sql.join(conditions, ' AND ')}
       order by r.created_at desc, r.id desc limit ${filter.limit} offset ${filter.offset ?? 0}`),
  )) as RecordRow[];
  return rows.map(recordOf);
}

/** A new key: its environment decides its prefix (`ear_live_` or `ear_test_`); addresses become networks (`10.0.0.1` is `10.0.0.1/32`). */
export async function createApiKey(db: ConnectionPool, input: NewApiKey, now: Date): Promise<IssuedKeyRecord> {
  const id = randomUUID();
  const issued = issueApiKey(input.environment);
  const record = await ownerInTenant(db, input.tenantId, async (tx) => {
    await tx.query(sql`
    insert into api_keys (id, tenant_id, name, display_prefix, key_hash, scopes, environment, ip_allowlist, expires_at, workspace, created_by_kind, created_by_key_id, created_at)
    values (${id}, ${input.tenantId}, ${input.name}, ${issued.displayPrefix}, ${issued.hash}, ${[...input.scopes]}, ${input.environment},
            array(select network(a::inet)::cidr from unnest(${[...input.ipAllowlist]}::text[]) as a), ${input.expiresAt}, ${input.workspace},
            ${input.createdBy.kind}, ${input.createdBy.kind === 'apiKey' ? input.createdBy.keyId : null}, ${now})`);
    return recordIn(tx, input.tenantId, id, now);
  });
  if (!record) throw new Error(`key ${id} vanished after it was created`);
  return { record, secret: issued.key };
}

/**
 * A new secret for a key that is neither revoked nor expired; the one it
 * replaces keeps working until `overlapUntil` (a previous one still in its
 * overlap stops now). Answers nothing for an unknown key.
 */
export async function rotateApiKey(
  db: ConnectionPool,
  tenantId: string,
  id: string,
  overlapUntil: Date,
  now: Date,
): Promise<IssuedKeyRecord | 'unknown' | 'revoked' | 'expired'> {
  const current = await getApiKey(db, tenantId, id, now);
  if (!current) return 'unknown';
  if (current.status === 'revoked' || current.status === 'expired') return current.status;
  const issued = issueApiKey(current.environment);
  const updated = await ownerInTenant(db, tenantId, async (tx) => {
    const [row] = (await tx.query(sql`
      update api_keys
         set previous_key_hash = key_hash, previous_key_expires_at = ${overlapUntil}, key_hash = ${issued.hash}, display_prefix = ${issued.displayPrefix}
       where tenant_id = ${tenantId} and id = ${id} and status = 'active'
       returning id`)) as { id: string }[];
    return row;
  });
  if (!updated) return 'revoked';
  noteCredentialChange();
  const record = await getApiKey(db, tenantId, id, now);
  if (!record) return 'unknown';
  return { record, secret: issued.key };
}

/** Revokes a key (and the previous secret of a rotation); revoking again changes nothing. */
export async function revokeApiKey(db: ConnectionPool, tenantId: string, id: string, now: Date): Promise<ApiKeyRecord | undefined> {
  await ownerInTenant(db, tenantId, (tx) =>
    tx.query(sql`update api_keys set status = 'revoked', revoked_at = ${now} where tenant_id = ${tenantId} and id = ${id} and status <> 'revoked'`),
  );
  noteCredentialChange();
  return getApiKey(db, tenantId, id, now);
}
