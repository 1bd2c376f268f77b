import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, sql, type ConnectionPool } from '@earshot/db';
import { openTestDatabase } from '@earshot/testing';
import { AUTH_MIGRATIONS } from './index';
import { ApiKeyCache } from './key-cache';
import { KeyUsageMeter } from './key-usage';
import { createApiKey, getApiKey, listApiKeys, revokeApiKey, rotateApiKey, type NewApiKey } from './key-records';
import { SecretBox } from './secret-box';
import { deleteTenant, getTenant, listTenants, setTenantStatus } from './tenancy';
import { createTenant, lookupApiKey } from './tenants';

const now = new Date('2026-03-02T10:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('the lifecycle of a key', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  const box = new SecretBox(randomBytes(32));

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('key-lifecycle'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS]);
  });
  afterAll(async () => close());

  const newKey = async (overrides: Partial<NewApiKey> = {}) => {
    const tenant = overrides.tenantId ?? (await createTenant(db, box, { name: 'Acme' })).tenant.id;
    return createApiKey(
      db,
      {
        tenantId: tenant,
        name: 'ci',
        scopes: ['calls:read'],
        environment: 'production',
        workspace: 'default',
        ipAllowlist: [],
        expiresAt: null,
        createdBy: { kind: 'operator' },
        ...overrides,
      },
      now,
    );
  };

  it('creates a record with every attribute, the key shown once and its environment in its prefix', async () => {
    const { record, secret } = await newKey({
      environment: 'staging',
      workspace: 'voice-lab',
      ipAllowlist: ['10.0.0.1', '2001:db8::/32'],
      expiresAt: later(3_600_000),
    });
    expect(secret).toMatch(/^ear_test_/);
    expect(record).toMatchObject({
      name: 'ci',
      prefix: secret.slice(0, 15),
      scopes: ['calls:read'],
      environment: 'staging',
      ipAllowlist: ['10.0.0.1/32', '2001:db8::/32'],
      lastUsedAt: null,
      usage24h: 0,
      status: 'active',
      workspace: 'voice-lab',
      expiresAt: later(3_600_000).toISOString(),
      previousSecretValidUntil: null,
      createdAt: now.toISOString(),
      createdBy: { kind: 'operator', keyId: null },
      revokedAt: null,
    });
    expect((await lookupApiKey(db, box, secret, now)).ok).toBe(true);
    expect((await newKey()).secret).toMatch(/^ear_live_/);
  });

  it('keeps the previous key working during the overlap of a rotation, and refuses it after', async () => {
    const { record, secret: old } = await newKey();
    const rotated = await rotateApiKey(db, await tenantOf(record.id), record.id, later(60_000), now);
    if (typeof rotated === 'string') throw new Error(rotated);
    expect(rotated.secret).not.toBe(old);
    expect(rotated.record).toMatchObject({
      id: record.id,
      status: 'rotating',
      previousSecretValidUntil: later(60_000).toISOString(),
      prefix: rotated.secret.slice(0, 15),
    });
    expect(await lookupApiKey(db, box, old, later(59_999))).toMatchObject({ ok: true, key: { keyId: record.id, expiresAt: later(60_000) } });
    expect(await lookupApiKey(db, box, old, later(60_000))).toEqual({ ok: false, reason: 'rotated' });
    expect((await lookupApiKey(db, box, rotated.secret, later(60_000))).ok).toBe(true);
    expect((await getApiKey(db, await tenantOf(record.id), record.id, later(60_000)))?.status).toBe('active');
  });

  it('revokes a key and its previous secret, and shows expired keys as expired', async () => {
    const { record, secret } = await newKey();
    const tenantId = await tenantOf(record.id);
    const rotated = await rotateApiKey(db, tenantId, record.id, later(60_000), now);
    if (typeof rotated === 'string') throw new Error(rotated);
    expect(await revokeApiKey(db, tenantId, record.id, now)).toMatchObject({ status: 'revoked', revokedAt: now.toISOString() });
    expect(await lookupApiKey(db, box, secret, now)).toEqual({ ok: false, reason: 'revoked' });
    expect(await lookupApiKey(db, box, rotated.secret, now)).toEqual({ ok: false, reason: 'revoked' });
    expect(await rotateApiKey(db, tenantId, record.id, later(1), now)).toBe('revoked');

    const expiring = await newKey({ expiresAt: later(1_000) });
    expect(await lookupApiKey(db, box, expiring.secret, later(1_000))).toEqual({ ok: false, reason: 'expired' });
    const expiringTenant = await tenantOf(expiring.record.id);
    expect((await getApiKey(db, expiringTenant, expiring.record.id, later(1_000)))?.status).toBe('expired');
    expect(await listApiKeys(db, expiringTenant, { status: 'expired', limit: 10 }, later(1_000))).toHaveLength(1);
  });

  it('refuses the keys of a suspended tenant until it is resumed', async () => {
    const { record, secret } = await newKey();
    const tenantId = await tenantOf(record.id);
    expect(await setTenantStatus(db, tenantId, 'suspended', now)).toMatchObject({ status: 'suspended', suspendedAt: now.toISOString() });
    expect(await lookupApiKey(db, box, secret, now)).toEqual({ ok: false, reason: 'suspended' });
    expect((await listTenants(db, { status: 'suspended', limit: 50 }, now)).map((t) => t.id)).toContain(tenantId);
    await setTenantStatus(db, tenantId, 'active', now);
    expect((await lookupApiKey(db, box, secret, now)).ok).toBe(true);
  });

  it('empties every process’s kept keys within the change check once a key is revoked elsewhere', async () => {
    const { record, secret } = await newKey();
    const elsewhere = new ApiKeyCache(db, box, 60_000, { changeCheckMs: 200 });
    expect((await elsewhere.identify(secret, now)).ok).toBe(true);
    await revokeApiKey(db, await tenantOf(record.id), record.id, now);
    await sleep(250);
    expect(await elsewhere.identify(secret, now)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('counts use in memory and writes it in batches: last use and 24-hour usage to the minute', async () => {
    const { record, secret } = await newKey();
    const cache = new ApiKeyCache(db, box, 60_000, { usageFlushMs: 60_000 });
    const found = await cache.identify(secret, now);
    if (!found.ok) throw new Error(found.reason);
    const tenantId = await tenantOf(record.id);
    cache.recordUse(found.key, later(-25 * 3_600_000));
    for (let i = 0; i < 3; i++) cache.recordUse(found.key, later(i * 45_000));
    expect((await getApiKey(db, tenantId, record.id, now))?.usage24h).toBe(0);
    await cache.flushUsage();
    cache.recordUse(found.key, later(100_000));
    await cache.close();
    expect(await getApiKey(db, tenantId, record.id, later(120_000))).toMatchObject({ usage24h: 4, lastUsedAt: later(100_000).toISOString() });
  });

  it('writes every other key’s usage when PostgreSQL refuses one key’s row, dropping that one aloud', async () => {
    const { record } = await newKey();
    const tenantId = await tenantOf(record.id);
    const errors: unknown[] = [];
    const meter = new KeyUsageMeter(db, { flushMs: 60_000, onError: (error) => errors.push(error) });
    meter.record(record.id, later(1_000));
    meter.record('not-a-uuid', later(1_000));
    meter.record(record.id, later(2_000));
    await meter.close();
    expect(errors).toHaveLength(1);
    expect(await getApiKey(db, tenantId, record.id, later(3_000))).toMatchObject({ usage24h: 2, lastUsedAt: later(2_000).toISOString() });
  });

  it('deletes a tenant with its rows in every table that has a tenant_id', async () => {
    const { record } = await newKey();
    const tenantId = await tenantOf(record.id);
    await db.query(sql`create table if not exists tenant_notes (tenant_id uuid not null, body text)`);
    await db.query(sql`insert into tenant_notes values (${tenantId}, 'a'), (${tenantId}, 'b'), (gen_random_uuid(), 'other')`);
    // Two notes, the tenant's two keys (its first and this one), the tenant.
    expect(await deleteTenant(db, tenantId)).toBe(5);
    expect(await getTenant(db, tenantId, now)).toBeUndefined();
    expect(await db.query(sql`select count(*)::int as n from tenant_notes`)).toEqual([{ n: 1 }]);
    expect(await db.query(sql`select count(*)::int as n from api_keys where tenant_id = ${tenantId}`)).toEqual([{ n: 0 }]);
    expect(await deleteTenant(db, tenantId)).toBeUndefined();
  });

  it('deletes a tenant whose key usage is being counted at that moment, though the two wait on each other', async () => {
    const { record } = await newKey();
    const tenantId = await tenantOf(record.id);
    await db.query(sql`insert into api_key_usage (key_id, minute, requests) values (${record.id}, ${now}, 1)`);
    // What a usage flush locks, in its order: the key's minute, then the key. The deletion locks the key, then (its
    // cascade) the minute, so each waits on the other. PostgreSQL undoes the one whose deadlock_timeout passes first:
    // the deletion, which waited first, unless a loaded machine delays its check past the flush's, so the flush waits longer.
    let deleting: Promise<number | undefined> | undefined;
    await db.tx(async (flush) => {
      await flush.query(sql`set local deadlock_timeout = '30s'`);
      await flush.query(sql`update api_key_usage set requests = requests + 1 where key_id = ${record.id}`);
      deleting = deleteTenant(db, tenantId);
      while (!(await waitingOnLocks())) await sleep(20);
      await flush.query(sql`update api_keys set last_used_at = ${now} where id = ${record.id}`);
    });
    // The tenant, its two keys and the minute's cascade: the minute is not counted, as it has no tenant_id.
    await expect(deleting).resolves.toBe(3);
    expect(await db.query(sql`select count(*)::int as n from api_key_usage where key_id = ${record.id}`)).toEqual([{ n: 0 }]);
  });

  /** Whether a session of this database waits for a lock another holds. */
  async function waitingOnLocks(): Promise<boolean> {
    const [row] = (await db.query(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as {
      n: number;
    }[];
    return (row?.n ?? 0) > 0;
  }

  async function tenantOf(keyId: string): Promise<string> {
    const [row] = (await db.query(sql`select tenant_id from api_keys where id = ${keyId}`)) as { tenant_id: string }[];
    if (!row) throw new Error(`no key ${keyId}`);
    return row.tenant_id;
  }
});
