import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '@earshot/contracts';
import { envelope, ingestHeaders, type TenantCredentials, startTestKeys, type TestKeys, scanForPlaintext } from '@earshot/testing';

const HOUR = 3_600_000;

describe('API keys through the HTTP API', () => {
  let keys: TestKeys;
  let acme: TenantCredentials;
  const shown: string[] = [];

  beforeAll(async () => {
    keys = await startTestKeys('api-keys', { EARSHOT_TRUSTED_PROXIES: '10.9.9.9' });
    acme = await keys.createTenant('Acme');
    shown.push(acme.apiKey, acme.webhookSecret);
  }, 60_000);
  afterAll(async () => keys?.stop());

  const create = async (body: Record<string, unknown>, token = acme.apiKey) => {
    const response = await keys.call({ method: 'POST', path: '/keys', token, body });
    if (response.statusCode === 201) shown.push(response.json<{ secret: string }>().secret);
    return response;
  };
  const issued = async (body: Record<string, unknown>) => {
    const response = await create(body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ key: ApiKeyRecord; secret: string }>();
  };
  const calls = (token: string, from?: string, headers?: Record<string, string>) => keys.call({ method: 'GET', path: '/calls', token, from, headers });

  it('creates a key, shows it once, and lists and gets its record without it', async () => {
    const { key, secret } = await issued({
      name: 'ci',
      scopes: ['calls:read', 'keys:read'],
      workspace: 'voice-lab',
      ipAllowlist: ['203.0.113.0/24', '2001:db8::1'],
    });
    expect(secret).toMatch(/^ear_live_/);
    expect(key).toMatchObject({
      name: 'ci',
      prefix: secret.slice(0, 15),
      scopes: ['calls:read', 'keys:read'],
      environment: 'production',
      ipAllowlist: ['203.0.113.0/24', '2001:db8::1/128'],
      lastUsedAt: null,
      usage24h: 0,
      status: 'active',
      workspace: 'voice-lab',
      expiresAt: null,
      createdBy: { kind: 'apiKey' },
    });
    const got = await keys.call({ method: 'GET', path: `/keys/${key.id}`, token: acme.apiKey });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ ok: true, key });
    const listed = await keys.call({ method: 'GET', path: '/keys?workspace=voice-lab', token: acme.apiKey });
    expect(listed.json()).toEqual({ ok: true, items: [key], nextCursor: null });
    expect(listed.body).not.toContain(secret);
  });

  it('pages the list by cursor and by page number, newest first', async () => {
    for (const name of ['p1', 'p2', 'p3']) {
      await issued({ name, scopes: ['calls:read'], workspace: 'paging' });
      keys.clock.advance(1);
    }
    const first = (await keys.call({ method: 'GET', path: '/keys?workspace=paging&limit=2', token: acme.apiKey })).json<{
      items: ApiKeyRecord[];
      nextCursor: string;
    }>();
    expect(first.items.map((k) => k.name)).toEqual(['p3', 'p2']);
    const second = (await keys.call({ method: 'GET', path: `/keys?workspace=paging&limit=2&cursor=${first.nextCursor}`, token: acme.apiKey })).json<{
      items: ApiKeyRecord[];
      nextCursor: null;
    }>();
    expect(second.items.map((k) => k.name)).toEqual(['p1']);
    expect(second.nextCursor).toBeNull();
    const paged = (await keys.call({ method: 'GET', path: '/keys?workspace=paging&limit=2&page=2', token: acme.apiKey })).json();
    expect(paged).toMatchObject({ page: 2, nextPage: null, items: [{ name: 'p1' }] });
    expect((await keys.call({ method: 'GET', path: '/keys?cursor=nonsense', token: acme.apiKey })).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: [{ path: 'query.cursor' }],
    });
  });

  it('refuses a live key for staging, and gives test keys to staging', async () => {
    const refused = await create({ name: 'x', scopes: ['calls:read'], environment: 'staging', kind: 'live' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', fields: [{ path: 'body.kind' }] });
    expect((await create({ name: 'x', scopes: ['calls:read'], environment: 'production', kind: 'test' })).statusCode).toBe(400);
    const staging = await issued({ name: 'staging', scopes: ['calls:read'], environment: 'staging' });
    expect(staging.secret).toMatch(/^ear_test_/);
    expect(staging.key.environment).toBe('staging');
  });

  it('answers bad input with the Error shape naming the field', async () => {
    for (const body of [
      { scopes: ['calls:read'] },
      { name: 'x', scopes: ['calls:launch'] },
      { name: 'x', scopes: ['calls:read'], ipAllowlist: ['10.0.0.0/33'] },
      { name: 'x', scopes: ['calls:read'], extra: 1 },
    ]) {
      const response = await create(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    }
    const past = await create({ name: 'x', scopes: ['calls:read'], expiresAt: new Date(keys.clock.now().getTime() - 1).toISOString() });
    expect(past.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ path: 'body.expiresAt' }] });
    expect((await keys.call({ method: 'GET', path: '/keys/not-a-uuid', token: acme.apiKey })).statusCode).toBe(400);
    expect((await keys.call({ method: 'GET', path: '/keys/00000000-0000-4000-8000-000000000000', token: acme.apiKey })).json()).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('needs keys:write to manage keys and keys:read to read them, and grants no scope the creator lacks', async () => {
    const reader = await issued({ name: 'reader', scopes: ['keys:read', 'calls:read'] });
    expect((await keys.call({ method: 'GET', path: '/keys', token: reader.secret })).statusCode).toBe(200);
    const denied = await create({ name: 'y', scopes: ['calls:read'] }, reader.secret);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'FORBIDDEN', error: 'the API key lacks the keys:write scope' });
    const writer = await issued({ name: 'writer', scopes: ['keys:write', 'calls:read'] });
    const beyond = await create({ name: 'z', scopes: ['calls:read', 'billing:read'] }, writer.secret);
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json<{ error: string }>().error).toContain('billing:read');
    expect((await keys.call({ method: 'GET', path: '/keys', token: writer.secret })).statusCode).toBe(403);
  });

  it('keeps a rotated key working during its overlap and refuses it after, while the new key works', async () => {
    const { key, secret: old } = await issued({ name: 'rotating', scopes: ['calls:read', 'keys:read'] });
    const rotated = await keys.call({ method: 'POST', path: `/keys/${key.id}/rotate`, token: acme.apiKey, body: { overlapSeconds: 60 } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json<{ key: ApiKeyRecord; secret: string }>();
    shown.push(fresh.secret);
    expect(fresh.key).toMatchObject({ id: key.id, status: 'rotating', previousSecretValidUntil: new Date(keys.clock.now().getTime() + 60_000).toISOString() });
    expect((await calls(old)).statusCode).toBe(200);
    expect((await calls(fresh.secret)).statusCode).toBe(200);
    keys.clock.advance(59_000);
    expect((await calls(old)).statusCode).toBe(200);
    keys.clock.advance(1_000);
    const after = await calls(old);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'the API key was rotated and its overlap has ended: use the new key' });
    expect((await calls(fresh.secret)).statusCode).toBe(200);
    expect((await keys.call({ method: 'GET', path: `/keys/${key.id}`, token: acme.apiKey })).json()).toMatchObject({
      key: { status: 'active', previousSecretValidUntil: null },
    });
  });

  it('refuses a revoked key at once, and a revoked key cannot be rotated', async () => {
    const { key, secret } = await issued({ name: 'leaked', scopes: ['calls:read'] });
    expect((await calls(secret)).statusCode).toBe(200);
    const revoked = await keys.call({ method: 'POST', path: `/keys/${key.id}/revoke`, token: acme.apiKey });
    expect(revoked.json()).toMatchObject({ ok: true, key: { status: 'revoked', revokedAt: keys.clock.now().toISOString() } });
    expect((await calls(secret)).json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'the API key has been revoked' });
    expect((await keys.call({ method: 'POST', path: `/keys/${key.id}/rotate`, token: acme.apiKey, body: {} })).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('refuses an expired key', async () => {
    const { key, secret } = await issued({ name: 'temporary', scopes: ['calls:read'], expiresAt: new Date(keys.clock.now().getTime() + HOUR).toISOString() });
    expect((await calls(secret)).statusCode).toBe(200);
    keys.clock.advance(HOUR);
    expect((await calls(secret)).json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'the API key has expired' });
    expect((await keys.call({ method: 'GET', path: `/keys/${key.id}`, token: acme.apiKey })).json()).toMatchObject({ key: { status: 'expired' } });
  });

  it('refuses an address outside the allowlist (403), believing X-Forwarded-For only from a trusted proxy', async () => {
    const { secret } = await issued({ name: 'office', scopes: ['calls:read'], ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] });
    expect((await calls(secret, '203.0.113.9')).statusCode).toBe(200);
    expect((await calls(secret, '2001:db8::7')).statusCode).toBe(200);
    const outside = await calls(secret, '198.51.100.7');
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ ok: false, code: 'FORBIDDEN', error: 'the API key may not be used from 198.51.100.7' });
    expect((await calls(secret, '10.9.9.9', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(200);
    expect((await calls(secret, '10.9.9.9', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(403);
    expect((await calls(secret, '198.51.100.7', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
  });

  it('counts last use and 24-hour usage without a write per request', async () => {
    const { key, secret } = await issued({ name: 'busy', scopes: ['calls:read', 'keys:read'] });
    const at = keys.clock.now().toISOString();
    for (let i = 0; i < 5; i++) expect((await calls(secret)).statusCode).toBe(200);
    let record: ApiKeyRecord | undefined;
    for (let tries = 0; tries < 100 && record?.usage24h !== 5; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      record = (await keys.call({ method: 'GET', path: `/keys/${key.id}`, token: acme.apiKey })).json<{ key: ApiKeyRecord }>().key;
    }
    expect(record).toMatchObject({ usage24h: 5, lastUsedAt: at });
    keys.clock.advance(24 * HOUR + 60_000);
    expect((await keys.call({ method: 'GET', path: `/keys/${key.id}`, token: acme.apiKey })).json()).toMatchObject({ key: { usage24h: 0, lastUsedAt: at } });
  });

  it('rotates the webhook secret: signatures with either secret verify during the overlap, only the new one after', async () => {
    const rotated = await keys.call({ method: 'POST', path: '/webhook-secret/rotate', token: acme.apiKey, body: { overlapSeconds: 300 } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { webhookSecret } = rotated.json<{ webhookSecret: string; previousValidUntil: string }>();
    shown.push(webhookSecret);
    const ingest = async (secret: string, id: string) => {
      const body = JSON.stringify(envelope(id));
      return keys.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks/ingest',
        payload: body,
        headers: ingestHeaders({ body, credentials: { ...acme, webhookSecret: secret }, timestamp: keys.clock.seconds() }),
      });
    };
    expect((await ingest(acme.webhookSecret, 'old-during')).statusCode).toBeLessThan(300);
    expect((await ingest(webhookSecret, 'new-during')).statusCode).toBeLessThan(300);
    keys.clock.advance(301_000);
    expect((await ingest(acme.webhookSecret, 'old-after')).statusCode).toBe(401);
    expect((await ingest(webhookSecret, 'new-after')).statusCode).toBeLessThan(300);
  });

  it('tells where the latest webhook secret rotation stands, never the secret, to keys:read', async () => {
    const before = await keys.call({ method: 'GET', path: '/webhook-secret', token: acme.apiKey });
    expect(before.statusCode, before.body).toBe(200);
    const rotated = await keys.call({ method: 'POST', path: '/webhook-secret/rotate', token: acme.apiKey, body: { overlapSeconds: 60 } });
    const { webhookSecret, previousValidUntil } = rotated.json<{ webhookSecret: string; previousValidUntil: string }>();
    shown.push(webhookSecret);
    const after = await keys.call({ method: 'GET', path: '/webhook-secret', token: acme.apiKey });
    expect(after.json()).toEqual({ ok: true, previousValidUntil });
    expect(after.json().previousValidUntil).not.toBe(before.json().previousValidUntil);
    expect(after.body).not.toContain(webhookSecret);
    const { secret: withoutScope } = await issued({ name: 'calls only', scopes: ['calls:read'] });
    expect((await keys.call({ method: 'GET', path: '/webhook-secret', token: withoutScope })).statusCode).toBe(403);
  });

  it('records every key and secret action in GET /audit', async () => {
    const response = await keys.call({ method: 'GET', path: '/audit?limit=200', token: acme.apiKey });
    const actions = response.json<{ items: { action: string; actor: { kind: string }; ip: string | null }[] }>().items.map((e) => e.action);
    for (const action of ['key.created', 'key.rotated', 'key.revoked', 'webhook_secret.rotated']) expect(actions).toContain(action);
  });

  it('stores no key and no secret it showed in any table, in the clear or hex-encoded', async () => {
    expect(shown.length).toBeGreaterThan(10);
    const { tables, findings } = await scanForPlaintext(keys.db, shown);
    expect(tables).toEqual(expect.arrayContaining(['api_keys', 'tenants', 'audit_entries', 'api_key_usage', 'idempotency_keys']));
    expect(findings).toEqual([]);
  });
});
