import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { decodeEvent, encodeEvent, isSealed } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { createTestDatabase, holdLocks, openTestDatabase, settledWithin } from '@earshot/testing';
import { AUTH_MIGRATIONS } from './index';
import { DataKeys } from './data-keys';
import { SecretBox } from './secret-box';
import { deleteTenant } from './tenancy';
import { createTenant } from './tenants';

describe('data keys', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  const master = new SecretBox(randomBytes(32));
  let keys: DataKeys;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('data-keys'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS]);
    keys = new DataKeys(db, master);
  });
  afterAll(async () => close());

  const newTenant = async (name: string) => (await createTenant(db, master, { name })).tenant.id;
  const transcript = (tenant: string, call: string, text: string) =>
    sampleEvent('transcript.final', { tenant, call: { provider_call_id: call }, data: { text } });

  it('are made once per tenant and per call, also when two processes ask at once', async () => {
    const tenant = await newTenant('Acme');
    const other = new DataKeys(db, master);
    const [a, b] = await Promise.all([keys.forCalls(tenant, ['c1', 'c2', 'c1']), other.forCalls(tenant, ['c2', 'c3'])]);
    expect([...a.keys()].sort()).toEqual(['c1', 'c2']);
    expect(a.get('c2')).toEqual(b.get('c2'));
    expect(await keys.forTenant(tenant)).toEqual(await other.forTenant(tenant));
    expect((await keys.forCalls(tenant, ['c1'])).get('c1')).toEqual(a.get('c1'));
    // Given the tenant's key, as the cache in front of intake gives it: the same keys, and a new call's made with it.
    const given = await keys.forCalls(tenant, ['c1', 'c3'], await keys.forTenant(tenant));
    expect(given.get('c1')).toEqual(a.get('c1'));
    expect(given.get('c3')).toEqual(b.get('c3'));
    const rows = (await db.query(sql`select count(*)::int as count from data_keys where tenant_id = ${tenant}`)) as { count: number }[];
    expect(rows[0]?.count).toBe(4);
  });

  it('are made for concurrent callers of a tenant in one shared statement, each tenant’s under its own key', async () => {
    const tenants = [await newTenant('Vandelay'), await newTenant('Kramerica'), await newTenant('Pendant')];
    const tenantKeys = await Promise.all(tenants.map((t) => keys.forTenant(t)));
    // As the cache calls it, the tenant's key in hand: each caller's calls join the statement at once.
    const asked = tenants.flatMap((tenant, i) => [['c1'], ['c2'], ['c3', 'c1'], ['c4', 'c2']].map((calls) => ({ tenant, calls, tenantKey: tenantKeys[i] })));
    const answers = await Promise.all(asked.map(({ tenant, calls, tenantKey }) => keys.forCalls(tenant, calls, tenantKey)));

    for (const [i, tenant] of tenants.entries()) {
      const mine = answers.filter((_, at) => asked[at]?.tenant === tenant);
      for (const call of ['c1', 'c2', 'c3', 'c4']) {
        const given = mine.flatMap((answer) => (answer.has(call) ? [answer.get(call)] : []));
        expect(given.length).toBeGreaterThan(0);
        for (const key of given) expect(key).toEqual(given[0]);
        // Wrapped by this tenant's key: a lookup with only this tenant's authority opens it to the same bytes.
        const id = given[0]?.id ?? '';
        expect((await new DataKeys(db, master).lookup([id], tenant))(id)).toEqual(given[0]?.key);
        expect((await keys.lookup([id], tenants[(i + 1) % tenants.length]))(id)).toBeUndefined();
      }
    }
    // created_at is its transaction's start: each tenant's first caller's statement went alone, its later callers' in the next.
    const made = (await db.query(sql`
      select tenant_id, count(*)::int as keys, count(distinct created_at)::int as statements
        from data_keys where tenant_id = any(${tenants}::uuid[]) and call_id is not null group by tenant_id`)) as { keys: number; statements: number }[];
    expect(made.map(({ keys, statements }) => ({ keys, statements }))).toEqual(tenants.map(() => ({ keys: 4, statements: 2 })));
  });

  it('keep one tenant’s new calls waiting for none of another’s, whose deletion holds its row', async () => {
    const [deleting, other] = [await newTenant('Dunder'), await newTenant('Mifflin')];
    const [deletingKey, otherKey] = await Promise.all([deleting, other].map((t) => keys.forTenant(t)));
    // As deleteTenant does first: the tenant's row, locked until its transaction ends (rolled back here).
    const deletion = await holdLocks(db, sql`select id from tenants where id = ${deleting} for update`);
    const waiting = keys.forCalls(deleting, ['held'], deletingKey);
    const settledFirst = await settledWithin(
      Promise.race([
        keys.forCalls(other, ['free'], otherKey).then((found) => (found.has('free') ? 'other tenant' : 'other tenant without its key')),
        waiting.then(() => 'held tenant'),
      ]),
      5_000,
      'neither within 5 s',
    );
    await deletion.release();
    expect(settledFirst).toBe('other tenant');
    expect((await waiting).has('held')).toBe(true);
  });

  it('fail only the caller whose tenant is gone', async () => {
    const [first, gone, kept] = [await newTenant('Wonka'), await newTenant('Slugworth'), await newTenant('Fickelgruber')];
    const [firstKey, goneKey, keptKey] = await Promise.all([first, gone, kept].map((t) => keys.forTenant(t)));
    await deleteTenant(db, gone);
    const [a, b, c] = await Promise.allSettled([
      keys.forCalls(first, ['c1'], firstKey),
      keys.forCalls(gone, ['c1'], goneKey),
      keys.forCalls(kept, ['c1'], keptKey),
    ]);
    expect(a?.status).toBe('fulfilled');
    expect(b?.status).toBe('rejected');
    expect(c?.status === 'fulfilled' ? c.value.has('c1') : c?.reason).toBe(true);
  });

  it('find a call’s key by its index once the table has grown, under the plans it got while nearly empty', async () => {
    // A database of its own, whose table starts empty as a new install's, and whose counts are this test's alone.
    const own = await createTestDatabase('data-key-scans');
    const reader = openDatabase({ url: own.url, poolSize: 1, applicationName: 'scans-reader' });
    const BULK = 50_000;
    try {
      const making = openDatabase({ url: own.url, applicationName: 'scans-making' });
      await migrate(making, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS]);
      const tenant = (await createTenant(making, master, { name: 'Scans' })).tenant.id;
      const store = new DataKeys(making, master);
      const tenantKey = await store.forTenant(tenant);
      const round = async (name: string) => {
        const found = await store.forCalls(tenant, [`${name}-new`, 'known'], tenantKey);
        expect(found.size).toBe(2);
      };
      // Past the custom plans after which Postgres keeps a generic one, on every session of the pool.
      for (let i = 0; i < 30; i++) await round(`small-${i}`);
      // The table grows as a deployment's does, between two runs of autovacuum: the plans kept are not made again.
      await reader.query(sql`
        insert into data_keys (id, tenant_id, call_id, wrapped)
        select 'dk_bulk_' || g, ${tenant}, 'bulk-' || g, '\\x00' from generate_series(1, ${BULK}::int) g`);
      for (let i = 0; i < 12; i++) await round(`grown-${i}`);
      // A backend hands its counts to the statistics view when it ends: the pool's are all in once its sessions are gone.
      await making.dispose();
      const open = async () =>
        ((await reader.query(sql`select count(*)::int as n from pg_stat_activity where application_name like 'scans-making%'`)) as { n: number }[])[0]?.n;
      while ((await open()) !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
      // Rows read by scanning the table: each scan of the grown table reads them all, and every earlier one a few dozen.
      const [read] = (await reader.query(sql`select seq_tup_read::int as rows from pg_stat_user_tables where relname = 'data_keys'`)) as { rows: number }[];
      expect(read?.rows).toBeLessThan(BULK);
    } finally {
      await reader.dispose();
      await own.drop();
    }
  });

  it('are stored wrapped, never as the key itself', async () => {
    const tenant = await newTenant('Initech');
    const key = (await keys.forCalls(tenant, ['c1'])).get('c1');
    const stored = (await db.query(sql`select wrapped from data_keys where tenant_id = ${tenant}`)) as { wrapped: Buffer }[];
    for (const row of stored) expect(row.wrapped.includes(key?.key ?? Buffer.alloc(0))).toBe(false);
  });

  it('open a tenant’s events until the tenant is deleted, then never again', async () => {
    const tenant = await newTenant('Globex');
    const event = transcript(tenant, 'call-9', 'my account number is 12345678');
    const key = (await keys.forCalls(tenant, ['call-9'])).get('call-9');
    const message = encodeEvent(event, key);
    expect(message.toString('latin1')).not.toContain('12345678');
    expect(decodeEvent(message, await keys.lookup([key?.id ?? '']))).toEqual(event);

    expect(await deleteTenant(db, tenant)).toBeGreaterThan(0);
    const after = decodeEvent(message, await keys.lookup([key?.id ?? '']));
    expect(after.data.text).toSatisfy(isSealed);
    expect(JSON.stringify(after)).not.toContain('12345678');
    expect(await db.query(sql`select 1 from data_keys where tenant_id = ${tenant}`)).toEqual([]);
  });

  it('erase one call and leave the tenant’s other calls readable', async () => {
    const tenant = await newTenant('Umbrella');
    const byCall = await keys.forCalls(tenant, ['gone', 'kept']);
    const gone = encodeEvent(transcript(tenant, 'gone', 'forget me'), byCall.get('gone'));
    const kept = encodeEvent(transcript(tenant, 'kept', 'keep me'), byCall.get('kept'));
    const ids = [byCall.get('gone')?.id ?? '', byCall.get('kept')?.id ?? ''];
    // Opened before the erasure, as a running projector has: what a lookup remembers must not outlive the key.
    const before = await keys.lookup(ids);
    expect(decodeEvent(gone, before).data.text).toBe('forget me');
    expect(await keys.eraseCall(tenant, 'gone')).toBe(true);
    expect(await keys.eraseCall(tenant, 'gone')).toBe(false);
    const lookup = await keys.lookup(ids);
    expect(decodeEvent(gone, lookup).data.text).toSatisfy(isSealed);
    expect(decodeEvent(kept, lookup).data.text).toBe('keep me');
  });

  it('hand later lookups the key they unwrapped before, the same bytes, so what readers opened with it stays known', async () => {
    const tenant = await newTenant('Initech');
    const key = (await keys.forCalls(tenant, ['call-1'])).get('call-1');
    const id = key?.id ?? '';
    const first = (await keys.lookup([id]))(id);
    expect(first).toEqual(key?.key);
    expect((await keys.lookup([id]))(id)).toBe(first);
    // Another process, or a restart: its own lookups, the same key.
    expect((await new DataKeys(db, master).lookup([id]))(id)).toEqual(first);
  });

  it('record each call’s erasure, with or without a key, and answer when it was for that tenant’s call only', async () => {
    const tenant = await newTenant('Initech');
    const other = await newTenant('Hooli');
    await keys.forCalls(tenant, ['sealed']);
    const before = Date.now();
    expect(await keys.eraseCall(tenant, 'sealed')).toBe(true);
    // A call whose events were appended in the clear has no key to destroy; its erasure is recorded all the same.
    expect(await keys.eraseCall(tenant, 'clear')).toBe(false);
    const erasedAt = await keys.erasedCalls([
      { tenantId: tenant, callId: 'sealed' },
      { tenantId: tenant, callId: 'clear' },
      { tenantId: tenant, callId: 'clear' },
      { tenantId: tenant, callId: 'never' },
      { tenantId: other, callId: 'clear' },
    ]);
    expect(erasedAt(tenant, 'sealed')).toBeGreaterThanOrEqual(before - 1_000);
    expect(erasedAt(tenant, 'clear')).toBeGreaterThanOrEqual(erasedAt(tenant, 'sealed') ?? Number.POSITIVE_INFINITY);
    expect(erasedAt(tenant, 'never')).toBeUndefined();
    expect(erasedAt(other, 'clear')).toBeUndefined();

    // Erased again, later: events stored between the two erasures are reached too.
    const first = erasedAt(tenant, 'clear') ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await keys.eraseCall(tenant, 'clear');
    expect((await keys.erasedCalls([{ tenantId: tenant, callId: 'clear' }]))(tenant, 'clear')).toBeGreaterThan(first);
    await deleteTenant(db, tenant);
    expect((await keys.erasedCalls([{ tenantId: tenant, callId: 'clear' }]))(tenant, 'clear')).toBeUndefined();
  });

  it('open only the named tenant’s events for a reader acting with that tenant’s authority', async () => {
    const [mine, theirs] = [await newTenant('Soylent'), await newTenant('Tyrell')];
    const myKey = (await keys.forCalls(mine, ['c1'])).get('c1');
    const theirKey = (await keys.forCalls(theirs, ['c1'])).get('c1');
    const lookup = await keys.lookup([myKey?.id ?? '', theirKey?.id ?? ''], mine);
    expect(decodeEvent(encodeEvent(transcript(mine, 'c1', 'mine'), myKey), lookup).data.text).toBe('mine');
    expect(decodeEvent(encodeEvent(transcript(theirs, 'c1', 'theirs'), theirKey), lookup).data.text).toSatisfy(isSealed);
  });
});
