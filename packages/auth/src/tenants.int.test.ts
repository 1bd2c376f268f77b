import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, sql, type ConnectionPool } from '@earshot/db';
import { openTestDatabase } from '@earshot/testing';
import { AUTH_MIGRATIONS } from './index';
import { SCOPES } from './api-key';
import { ApiKeyCache } from './key-cache';
import { SecretBox } from './secret-box';
import { authenticateApiKey, createTenant, rotateWebhookSecret } from './tenants';

const now = new Date('2026-03-02T10:00:00Z');

describe('tenants and API keys', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  const box = new SecretBox(randomBytes(32));

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('auth'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS]);
  });
  afterAll(async () => close());

  it('stores neither the key nor the secret in the clear', async () => {
    const created = await createTenant(db, box, { name: 'Acme' });
    const rows = await db.query(
      sql`select t.webhook_secret, k.key_hash, k.display_prefix, k.scopes from tenants t join api_keys k on k.tenant_id = t.id where t.id = ${created.tenant.id}`,
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.apiKey);
    expect(stored).not.toContain(created.webhookSecret);
    expect(rows[0].display_prefix).toBe(created.apiKey.slice(0, 15));
    expect(rows[0].scopes).toEqual([...SCOPES]);
  });

  it('maps a key to its tenant, scopes, environment and secret', async () => {
    const created = await createTenant(db, box, { name: 'Globex', environment: 'staging' });
    const key = await authenticateApiKey(db, box, created.apiKey, now);
    expect(key).toMatchObject({ tenant: created.tenant, environment: 'staging', webhookSecrets: [created.webhookSecret] });
    expect(created.apiKey).toMatch(/^ear_test_/);
  });

  it('finds nothing for a revoked or expired key', async () => {
    const revoked = await createTenant(db, box, { name: 'Revoked' });
    await db.query(sql`update api_keys set status = 'revoked' where tenant_id = ${revoked.tenant.id}`);
    expect(await authenticateApiKey(db, box, revoked.apiKey, now)).toBeUndefined();
    const expired = await createTenant(db, box, { name: 'Expired' });
    await db.query(sql`update api_keys set expires_at = ${new Date(now.getTime() - 1)} where tenant_id = ${expired.tenant.id}`);
    expect(await authenticateApiKey(db, box, expired.apiKey, now)).toBeUndefined();
  });

  it('offers the previous secret until its overlap ends', async () => {
    const created = await createTenant(db, box, { name: 'Rotating' });
    const fresh = await rotateWebhookSecret(db, box, created.tenant.id, new Date(now.getTime() + 60_000));
    expect((await authenticateApiKey(db, box, created.apiKey, now))?.webhookSecrets).toEqual([fresh, created.webhookSecret]);
    expect((await authenticateApiKey(db, box, created.apiKey, new Date(now.getTime() + 60_001)))?.webhookSecrets).toEqual([fresh]);
  });

  it('keeps found keys for a while, and re-reads one on refresh (a secret rotated by another process)', async () => {
    const created = await createTenant(db, box, { name: 'Cached' });
    const cache = new ApiKeyCache(db, box, 10_000, { changeCheckMs: 60_000 });
    expect((await cache.authenticate(created.apiKey, now))?.webhookSecrets).toEqual([created.webhookSecret]);
    // Another process's rotation: this one learns of it from the change counter, not yet read again.
    await db.query(
      sql`update tenants set previous_webhook_secret = webhook_secret, previous_secret_expires_at = ${new Date(now.getTime() + 60_000)}, webhook_secret = ${box.seal('whsec_fresh')} where id = ${created.tenant.id}`,
    );
    expect((await cache.authenticate(created.apiKey, now))?.webhookSecrets).toEqual([created.webhookSecret]);
    expect((await cache.refresh(created.apiKey, now))?.webhookSecrets).toEqual(['whsec_fresh', created.webhookSecret]);
    expect(await cache.authenticate('ear_live_not-a-key', now)).toBeUndefined();
  });

  it('reads a kept key again at once after this process rotates the secret', async () => {
    const created = await createTenant(db, box, { name: 'Rotated here' });
    const cache = new ApiKeyCache(db, box, 10_000, { changeCheckMs: 60_000 });
    expect((await cache.authenticate(created.apiKey, now))?.webhookSecrets).toEqual([created.webhookSecret]);
    const fresh = await rotateWebhookSecret(db, box, created.tenant.id, new Date(now.getTime() + 60_000));
    expect((await cache.authenticate(created.apiKey, now))?.webhookSecrets).toEqual([fresh, created.webhookSecret]);
  });
});
