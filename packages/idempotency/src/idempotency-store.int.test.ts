import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, openDatabase, refusedValue, sql, type ConnectionPool } from '@earshot/db';
import { createTestDatabase, openTestDatabase } from '@earshot/testing';
import { IDEMPOTENCY_MIGRATIONS } from './index';
import { IdempotencyStore, type Claim } from './idempotency-store';

const HOUR = 3_600_000;
const hash = Buffer.alloc(32, 1);

describe('IdempotencyStore', () => {
  let db: ConnectionPool;
  let other: ConnectionPool;
  let close: () => Promise<void>;
  let at = Date.parse('2026-03-02T10:00:00Z');
  const now = () => new Date(at);
  const store = (pool: ConnectionPool, options: { leaseMs?: number } = {}) =>
    new IdempotencyStore(pool, { scope: 'test', retentionMs: 72 * HOUR, now, ...options });

  beforeAll(async () => {
    const opened = await openTestDatabase('idempotency');
    ({ db, close } = opened);
    other = openDatabase({ url: opened.url, applicationName: 'test-idempotency-other' });
    await migrate(db, [DATABASE_MIGRATIONS, IDEMPOTENCY_MIGRATIONS]);
  });
  afterAll(async () => {
    await other.dispose();
    await close();
  });

  it('lets exactly one of many concurrent claims, from two pools, hold a key', async () => {
    const tenantId = randomUUID();
    const stores = [store(db), store(other)] as const;
    const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % 2 === 0 ? 0 : 1].claim([{ tenantId, key: 'k', requestHash: hash }])));
    expect(claims.flat().filter((c) => c?.state === 'claimed')).toHaveLength(1);
  });

  it('answers later claims with the stored answer, and keeps keys per tenant', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'answered', requestHash: hash }]);
    await s.complete([{ tenantId, key: 'answered', requestHash: hash, status: 202, response: { ok: true, id: 'e1' } }]);
    await s.settled();
    expect(await s.claim([{ tenantId, key: 'answered', requestHash: hash }])).toEqual([
      { state: 'done', status: 202, response: { ok: true, id: 'e1' }, requestHash: hash },
    ]);
    expect(await s.claim([{ tenantId: randomUUID(), key: 'answered', requestHash: hash }])).toEqual([{ state: 'claimed' }]);
  });

  it('lets a waiting copy settle on the first request’s answer', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'wait', requestHash: hash }]);
    const waiting = store(other).settle({ tenantId, key: 'wait', requestHash: hash }, 10_000);
    await s.complete([{ tenantId, key: 'wait', requestHash: hash, status: 202, response: { ok: true } }]);
    expect(await waiting).toMatchObject({ state: 'done', status: 202 });
  });

  it('frees a released key for a retry, and a claim whose lease ran out', async () => {
    const tenantId = randomUUID();
    const s = store(db, { leaseMs: 30_000 });
    await s.claim([
      { tenantId, key: 'released', requestHash: hash },
      { tenantId, key: 'abandoned', requestHash: hash },
    ]);
    await s.release([{ tenantId, key: 'released' }]);
    expect(await s.claim([{ tenantId, key: 'released', requestHash: hash }])).toEqual([{ state: 'claimed' }]);
    expect(await s.claim([{ tenantId, key: 'abandoned', requestHash: hash }])).toEqual([{ state: 'in_flight' }]);
    at += 31_000;
    expect(await s.claim([{ tenantId, key: 'abandoned', requestHash: hash }])).toEqual([{ state: 'claimed' }]);
  });

  it('keeps answers 72 hours: still there after 48, swept after 73', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'old', requestHash: hash }]);
    await s.complete([{ tenantId, key: 'old', requestHash: hash, status: 202, response: { ok: true } }]);
    await s.settled();
    at += 48 * HOUR;
    expect(await s.sweep()).toBe(0);
    expect((await s.claim([{ tenantId, key: 'old', requestHash: hash }]))[0]?.state).toBe('done');
    at += 25 * HOUR;
    expect(await s.sweep()).toBeGreaterThan(0);
    expect(await s.claim([{ tenantId, key: 'old', requestHash: hash }])).toEqual([{ state: 'claimed' }]);
  });

  it('answers a key and claims others in one statement; a claim of the key answered beside it gets that answer', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'answered-beside', requestHash: hash }]);
    // While this claim is written, the next three queue up and go out together.
    const first = s.claim([{ tenantId, key: 'first', requestHash: hash }]);
    const answering = s.complete([{ tenantId, key: 'answered-beside', requestHash: hash, status: 202, response: { ok: true, id: 'e2' } }]);
    const claims = s.claim([
      { tenantId, key: 'new', requestHash: hash },
      { tenantId, key: 'answered-beside', requestHash: hash },
    ]);
    await first;
    await answering;
    expect(await claims).toEqual([{ state: 'claimed' }, { state: 'done', status: 202, response: { ok: true, id: 'e2' }, requestHash: hash }]);
  });

  it('goes again as two statements when its answers and claims deadlock with another process', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'ours', requestHash: hash }]);
    let claiming: Promise<Claim[]> | undefined;
    let answering: Promise<void> | undefined;
    await other.tx(async (tx) => {
      // Our statement, not this one, must be the one the deadlock detector undoes.
      await tx.query(sql`set local deadlock_timeout = '30s'`);
      // Another process locks `ours`, as its own claim of a copy would.
      await tx.query(sql`update idempotency_keys set lease_until = lease_until where tenant_id = ${tenantId} and key = 'ours'`);
      const first = s.claim([{ tenantId, key: 'first', requestHash: hash }]);
      answering = s.complete([{ tenantId, key: 'ours', requestHash: hash, status: 202, response: { ok: true } }]);
      claiming = s.claim([{ tenantId, key: 'theirs', requestHash: hash }]);
      await first;
      // Our statement has claimed `theirs` and waits to answer `ours`; claiming `theirs` there too closes the cycle.
      while (
        (
          (await tx.query(sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`)) as {
            n: number;
          }[]
        )[0]?.n === 0
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await tx.query(sql`insert into idempotency_keys (tenant_id, scope, key, request_hash, state, created_at, lease_until)
        values (${tenantId}, 'test', 'theirs', ${hash}, 'in_flight', ${now()}, ${new Date(at + 30_000)})`);
    });
    await answering;
    expect(await claiming).toEqual([{ state: 'in_flight' }]);
    expect(await s.claim([{ tenantId, key: 'ours', requestHash: hash }])).toEqual([{ state: 'done', status: 202, response: { ok: true }, requestHash: hash }]);
  });

  it('lets a lingering answer ride in the next claim’s statement, and writes it when settling if none comes', async () => {
    const tenantId = randomUUID();
    const s = new IdempotencyStore(db, { scope: 'test', retentionMs: 72 * HOUR, now, answerLingerMs: 3_600_000 });
    await s.claim([
      { tenantId, key: 'rides', requestHash: hash },
      { tenantId, key: 'waits', requestHash: hash },
    ]);
    const riding = s.complete([{ tenantId, key: 'rides', requestHash: hash, status: 202, response: { ok: true, id: 'r' } }]);
    expect(await s.claim([{ tenantId, key: 'carrier', requestHash: hash }])).toEqual([{ state: 'claimed' }]);
    await riding;
    expect(await store(other).claim([{ tenantId, key: 'rides', requestHash: hash }])).toMatchObject([{ state: 'done', status: 202 }]);
    const waiting = s.complete([{ tenantId, key: 'waits', requestHash: hash, status: 202, response: { ok: true, id: 'w' } }]);
    await s.settled();
    await waiting;
    expect(await store(other).claim([{ tenantId, key: 'waits', requestHash: hash }])).toMatchObject([{ state: 'done', status: 202 }]);
  });

  it('answers keys by their index, never by scanning the table, under the plans a nearly empty table gets', async () => {
    // A database of its own, whose table starts empty as a new install's, and whose counts are this test's alone.
    const own = await createTestDatabase('idempotency-scans');
    const reader = openDatabase({ url: own.url, poolSize: 1, applicationName: 'scans-reader' });
    // A backend hands its counts to the statistics view when it ends: a pool's are all in once its sessions are gone.
    const closed = async (pool: ConnectionPool, name: string) => {
      await pool.dispose();
      const open = async () =>
        ((await reader.query(sql`select count(*)::int as n from pg_stat_activity where application_name like ${`${name}%`}`)) as { n: number }[])[0]?.n;
      while ((await open()) !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const counts = async () =>
      (
        (await reader.query(sql`select seq_scan::int as scans, n_tup_upd::int as answered from pg_stat_user_tables where relname = 'idempotency_keys'`)) as {
          scans: number;
          answered: number;
        }[]
      )[0];
    try {
      const migrating = openDatabase({ url: own.url, applicationName: 'scans-migrating' });
      await migrate(migrating, [DATABASE_MIGRATIONS, IDEMPOTENCY_MIGRATIONS]);
      await closed(migrating, 'scans-migrating');
      const before = await counts();
      const answering = openDatabase({ url: own.url, applicationName: 'scans-answering' });
      const s = store(answering);
      const tenantId = randomUUID();
      const rounds = 12;
      for (let round = 0; round < rounds; round++) {
        const keys = [0, 1, 2].map((i) => ({ tenantId, key: `scan-${round}-${i}`, requestHash: hash }));
        expect((await s.claim(keys)).map((c) => c.state)).toEqual(['claimed', 'claimed', 'claimed']);
        await s.complete(keys.map((key) => ({ ...key, status: 202, response: null })));
      }
      await closed(answering, 'scans-answering');
      expect(await counts()).toEqual({ scans: before?.scans, answered: rounds * 3 });
    } finally {
      await reader.dispose();
      await own.drop();
    }
  });

  it('stores the answer of a key whose claim is gone, with its request’s hash', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'gone', requestHash: hash }]);
    await s.release([{ tenantId, key: 'gone' }]);
    await s.complete([{ tenantId, key: 'gone', requestHash: hash, status: 202, response: null }]);
    expect(await s.claim([{ tenantId, key: 'gone', requestHash: hash }])).toEqual([{ state: 'done', status: 202, response: null, requestHash: hash }]);
  });

  it('refuses a key with a NUL before it joins a statement, and claims the keys beside it (a NUL once failed the whole statement with 503)', async () => {
    const tenantId = randomUUID();
    const claims = await Promise.allSettled(
      store(db).claimEach(['ok-1', 'evil\u0000', 'ok-2', 'x'.repeat(256)].map((key) => ({ tenantId, key, requestHash: hash }))),
    );
    expect(claims.map((c) => (c.status === 'fulfilled' ? c.value.state : (c.reason as Error).name))).toEqual([
      'claimed',
      'RefusedKeyError',
      'claimed',
      'RefusedKeyError',
    ]);
  });

  it('writes a shared statement PostgreSQL refuses again member by member, so only the member at fault fails', async () => {
    const s = store(db);
    const tenantId = randomUUID();
    // Held open by a first claim, so the next ones queue and share one statement.
    const first = s.claimEach([{ tenantId, key: 'first', requestHash: hash }]);
    const shared = s.claimEach([
      { tenantId, key: 'victim-1', requestHash: hash },
      { tenantId: 'not-a-uuid', key: 'culprit', requestHash: hash },
      { tenantId, key: 'victim-2', requestHash: hash },
    ]);
    expect((await Promise.all(first)).map((c) => c.state)).toEqual(['claimed']);
    const settled = await Promise.allSettled(shared);
    expect(settled.map((c) => (c.status === 'fulfilled' ? c.value.state : 'failed'))).toEqual(['claimed', 'failed', 'claimed']);
    expect(refusedValue((settled[1] as PromiseRejectedResult).reason)).toBe(true);
  });
});
