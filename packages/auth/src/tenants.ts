import { randomUUID } from 'node:crypto';
import { ownerInTenant, platformQuery, sql, type ConnectionPool } from '@earshot/db';
import { issueApiKey, parseApiKey, SCOPES, type KeyEnvironment, type Scope } from './api-key';
import { noteCredentialChange } from './credential-changes';
import { newWebhookSecret } from './standard-webhooks';
import type { SecretBox } from './secret-box';

export interface Tenant {
  id: string;
  name: string;
}

export interface CreatedTenant {
  tenant: Tenant;
  /** Shown once: only its hash is stored. */
  apiKey: string;
  /** Shown once: stored sealed under the master key. */
  webhookSecret: string;
}

/** A new tenant with its webhook secret and a first key carrying every scope. */
export async function createTenant(db: ConnectionPool, box: SecretBox, input: { name: string; environment?: KeyEnvironment }): Promise<CreatedTenant> {
  const tenant: Tenant = { id: randomUUID(), name: input.name };
  const webhookSecret = newWebhookSecret();
  const key = issueApiKey(input.environment ?? 'production');
  await ownerInTenant(db, tenant.id, async (tx) => {
    await tx.query(sql`insert into tenants (id, name, webhook_secret) values (${tenant.id}, ${tenant.name}, ${box.seal(webhookSecret)})`);
    await tx.query(sql`
      insert into api_keys (id, tenant_id, name, display_prefix, key_hash, scopes, environment)
      values (${randomUUID()}, ${tenant.id}, 'default', ${key.displayPrefix}, ${key.hash}, ${[...SCOPES]}, ${key.environment})`);
  });
  return { tenant, apiKey: key.key, webhookSecret };
}

export interface AuthenticatedKey {
  tenant: Tenant;
  keyId: string;
  /** The key's label, for the audit log. */
  keyName: string;
  scopes: readonly Scope[];
  environment: KeyEnvironment;
  /** CIDRs the key may be used from; empty means any address. */
  ipAllowlist: readonly string[];
  /** When the presented key stops working: its expiry, or the end of its overlap if it is the previous key of a rotation (kept keys are checked against it on every use). */
  expiresAt: Date | null;
  /** The secrets a signature may be made with: the current one, and the previous one during a rotation. */
  webhookSecrets: readonly string[];
}

/** Why a presented key names no caller: each gets its own message. */
export type KeyRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'rotated' | 'suspended';

export type KeyLookup = { ok: true; key: AuthenticatedKey } | { ok: false; reason: KeyRefusal };

interface KeyRow {
  key_id: string;
  key_name: string;
  tenant_id: string;
  tenant_name: string;
  tenant_status: 'active' | 'suspended';
  scopes: Scope[];
  environment: KeyEnvironment;
  ip_allowlist: string[];
  status: 'active' | 'revoked';
  expires_at: Date | null;
  /** Set when the presented key is the previous one of a rotation: when it stops. */
  previous_key_expires_at: Date | null;
  webhook_secret: Buffer;
  previous_webhook_secret: Buffer | null;
}

/**
 * The one way from a presented API key to its tenant. A malformed key or a
 * bad checksum is refused before any lookup; an unknown, revoked, expired or
 * rotated-out key, or a key of a suspended tenant, is refused with its reason.
 * The previous key of a rotation works until its overlap ends.
 */
export async function lookupApiKey(db: ConnectionPool, box: SecretBox, presented: string, now: Date): Promise<KeyLookup> {
  const parsed = parseApiKey(presented);
  if (!parsed) return { ok: false, reason: 'malformed' };
  // Before the lookup no tenant is known: the platform role's path across tenants.
  const [row] = (await platformQuery(
    db,
    sql`
    select k.id as key_id, k.name as key_name, t.id as tenant_id, t.name as tenant_name, t.status as tenant_status, k.scopes, k.environment,
           k.ip_allowlist::text[] as ip_allowlist, k.status, k.expires_at,
           case when k.key_hash = ${parsed.hash} then null else k.previous_key_expires_at end as previous_key_expires_at,
           t.webhook_secret,
           case when t.previous_secret_expires_at > ${now} then t.previous_webhook_secret end as previous_webhook_secret
      from api_keys k join tenants t on t.id = k.tenant_id
     where k.key_hash = ${parsed.hash} or k.previous_key_hash = ${parsed.hash}`,
  )) as KeyRow[];
  if (!row || row.environment !== parsed.environment) return { ok: false, reason: 'unknown' };
  if (row.status === 'revoked') return { ok: false, reason: 'revoked' };
  if (row.expires_at !== null && row.expires_at <= now) return { ok: false, reason: 'expired' };
  if (row.previous_key_expires_at !== null && row.previous_key_expires_at <= now) return { ok: false, reason: 'rotated' };
  if (row.tenant_status === 'suspended') return { ok: false, reason: 'suspended' };
  const secrets = [box.open(row.webhook_secret), ...(row.previous_webhook_secret ? [box.open(row.previous_webhook_secret)] : [])];
  return {
    ok: true,
    key: {
      tenant: { id: row.tenant_id, name: row.tenant_name },
      keyId: row.key_id,
      keyName: row.key_name,
      scopes: row.scopes,
      environment: row.environment,
      ipAllowlist: row.ip_allowlist,
      expiresAt: earliest(row.expires_at, row.previous_key_expires_at),
      webhookSecrets: secrets,
    },
  };
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a <= b ? a : b;
}

/** The caller of a presented key, or nothing whatever the reason. */
export async function authenticateApiKey(db: ConnectionPool, box: SecretBox, presented: string, now: Date): Promise<AuthenticatedKey | undefined> {
  const found = await lookupApiKey(db, box, presented, now);
  return found.ok ? found.key : undefined;
}

/**
 * Replaces the webhook secret; the old one keeps verifying until `overlapUntil`
 * so senders can switch without a gap. Answers the new secret (shown once).
 */
export async function rotateWebhookSecret(db: ConnectionPool, box: SecretBox, tenantId: string, overlapUntil: Date): Promise<string> {
  const secret = newWebhookSecret();
  await db.query(sql`
    update tenants
       set previous_webhook_secret = webhook_secret, previous_secret_expires_at = ${overlapUntil}, webhook_secret = ${box.seal(secret)}
     where id = ${tenantId}`);
  noteCredentialChange();
  return secret;
}
