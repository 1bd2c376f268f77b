import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TenantCredentials, startTestKeys, type TestKeys } from '@earshot/testing';

describe('the operator’s tenants, and refusals that hold in every process', () => {
  let keys: TestKeys;
  let acme: TenantCredentials;
  let globex: TenantCredentials;

  beforeAll(async () => {
    keys = await startTestKeys('tenants');
    acme = await keys.createTenant('Acme');
    globex = await keys.createTenant('Globex');
  }, 60_000);
  afterAll(async () => keys?.stop());

  const calls = (token: string) => keys.call({ method: 'GET', path: '/calls', token });

  it('lists tenants to the operator only, oldest first, with their active keys', async () => {
    const listed = await keys.call({ method: 'GET', path: '/admin/tenants', token: ADMIN_TOKEN });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({
      ok: true,
      nextCursor: null,
      items: [{ id: acme.tenant.id, name: 'Acme', status: 'active', activeKeys: 1, suspendedAt: null }, { id: globex.tenant.id }],
    });
    const paged = await keys.call({ method: 'GET', path: '/admin/tenants?limit=1', token: ADMIN_TOKEN });
    const next = paged.json<{ nextCursor: string }>().nextCursor;
    expect((await keys.call({ method: 'GET', path: `/admin/tenants?limit=1&cursor=${next}`, token: ADMIN_TOKEN })).json()).toMatchObject({
      items: [{ id: globex.tenant.id }],
      nextCursor: null,
    });
    const asTenant = await keys.call({ method: 'GET', path: '/admin/tenants', token: acme.apiKey });
    expect(asTenant.statusCode).toBe(401);
    expect(asTenant.json()).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect((await keys.call({ method: 'GET', path: '/admin/tenants/00000000-0000-4000-8000-000000000000', token: ADMIN_TOKEN })).json()).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('shows a key its own tenant, whatever its scopes, and no other', async () => {
    const created = await keys.call({ method: 'POST', path: '/keys', token: globex.apiKey, body: { name: 'calls only', scopes: ['calls:read'] } });
    const own = await keys.call({ method: 'GET', path: '/tenant', token: created.json<{ secret: string }>().secret });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ ok: true, tenant: { id: globex.tenant.id, name: 'Globex', status: 'active', activeKeys: 2 } });
    expect((await keys.call({ method: 'GET', path: '/tenant', token: acme.apiKey })).json()).toMatchObject({ tenant: { id: acme.tenant.id } });
    expect((await keys.call({ method: 'GET', path: '/tenant', token: ADMIN_TOKEN })).statusCode).toBe(401);
  });

  it('suspends a tenant, whose keys are then refused (403) in this process and another, and resumes it', async () => {
    const other = await keys.another();
    const keyList = () => keys.call({ method: 'GET', path: '/keys', token: acme.apiKey }, other.app);
    expect((await keyList()).statusCode).toBe(200);
    const suspended = await keys.call({ method: 'POST', path: `/admin/tenants/${acme.tenant.id}/suspend`, token: ADMIN_TOKEN });
    expect(suspended.json()).toMatchObject({ ok: true, tenant: { status: 'suspended', suspendedAt: keys.clock.now().toISOString() } });
    expect((await calls(acme.apiKey)).json()).toMatchObject({ code: 'FORBIDDEN', error: 'the tenant of this API key is suspended' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await keyList()).statusCode).toBe(403);
    expect((await calls(globex.apiKey)).statusCode).toBe(200);
    keys.clock.advance(1_000);
    expect((await keys.call({ method: 'POST', path: `/admin/tenants/${acme.tenant.id}/resume`, token: ADMIN_TOKEN })).json()).toMatchObject({
      tenant: { status: 'active', suspendedAt: null },
    });
    expect((await calls(acme.apiKey)).statusCode).toBe(200);
    const audit = (await keys.call({ method: 'GET', path: '/audit', token: acme.apiKey })).json<{ items: { action: string; actor: { kind: string } }[] }>();
    expect(audit.items.filter((e) => e.actor.kind === 'operator').map((e) => e.action)).toEqual(['tenant.resumed', 'tenant.suspended']);
  });

  it('refuses keys of an environment the deployment does not accept', async () => {
    const staging = await keys.another({ EARSHOT_KEY_ENVIRONMENTS: 'staging' });
    const refused = await keys.call({ method: 'GET', path: '/keys', token: globex.apiKey }, staging.app);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', error: 'this deployment accepts staging keys only; this is a production key' });
    const created = await keys.call({
      method: 'POST',
      path: '/keys',
      token: globex.apiKey,
      body: { name: 'stage', scopes: ['keys:read'], environment: 'staging' },
    });
    const { secret } = created.json<{ secret: string }>();
    expect((await keys.call({ method: 'GET', path: '/keys', token: secret }, staging.app)).statusCode).toBe(200);
  });

  it('answers 503 UNAVAILABLE, not 500, when the key store cannot be read', async () => {
    const created = await keys.call({ method: 'POST', path: '/keys', token: globex.apiKey, body: { name: 'fresh', scopes: ['keys:read'] } });
    const { secret } = created.json<{ secret: string }>();
    await keys.db.query(keys.sql`alter table api_keys rename to api_keys_away`);
    try {
      const response = await keys.call({ method: 'GET', path: '/keys', token: secret });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ ok: false, code: 'UNAVAILABLE', error: 'the key store is unavailable; retry later' });
    } finally {
      await keys.db.query(keys.sql`alter table api_keys_away rename to api_keys`);
    }
    expect((await keys.call({ method: 'GET', path: '/keys', token: secret })).statusCode).toBe(200);
  });

  it('deletes a tenant with every row of its data; its keys are then unknown', async () => {
    expect((await calls(globex.apiKey)).statusCode).toBe(200);
    const deleted = await keys.call({ method: 'DELETE', path: `/admin/tenants/${globex.tenant.id}`, token: ADMIN_TOKEN });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json<{ rowsDeleted: number }>().rowsDeleted).toBeGreaterThan(3);
    expect((await calls(globex.apiKey)).json()).toMatchObject({ code: 'UNAUTHORIZED', error: 'the API key is not known' });
    for (const table of ['api_keys', 'audit_entries']) {
      const [row] = (await keys.db.query(keys.sql`select count(*)::int as n from ${keys.sql.ident(table)} where tenant_id = ${globex.tenant.id}`)) as {
        n: number;
      }[];
      expect(row?.n, table).toBe(0);
    }
    expect((await keys.call({ method: 'DELETE', path: `/admin/tenants/${globex.tenant.id}`, token: ADMIN_TOKEN })).statusCode).toBe(404);
    expect((await calls(acme.apiKey)).statusCode).toBe(200);
  });
});
