import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, openDatabase, type ConnectionPool } from '@earshot/db';
import { openTestDatabase } from '../../../test/support/database';
import { IDEMPOTENCY_MIGRATIONS } from './index';
import { IdempotencyStore } from './idempotency-store';

const HOUR = 3_600_000;
const hash = Buffer.alloc(32, 1);

describe('IdempotencyStore', () => {
  let db: ConnectionPool;
  let other: ConnectionPool;
  let close: () => Promise<void>;
  let at = Date.parse('2026-03-02T10:00:00Z');
  const now = () => new Date(at);
  const store = (pool: ConnectionPool, options: { leaseMs?: number } = {}) => new IdempotencyStore(pool, { scope: 'test', retentionMs: 72 * HOUR, now, ...options });

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
    const stores = [store(db), store(other)];
    const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % 2]?.claim([{ tenantId, key: 'k', requestHash: hash }])));
    expect(claims.flat().filter((c) => c?.state === 'claimed')).toHaveLength(1);
  });

  it('answers later claims with the stored answer, and keeps keys per tenant', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'answered', requestHash: hash }]);
    await s.complete([{ tenantId, key: 'answered', status: 202, response: { ok: true, id: 'e1' } }]);
    await s.settled();
    expect(await s.claim([{ tenantId, key: 'answered', requestHash: hash }])).toEqual([{ state: 'done', status: 202, response: { ok: true, id: 'e1' }, requestHash: hash }]);
    expect(await s.claim([{ tenantId: randomUUID(), key: 'answered', requestHash: hash }])).toEqual([{ state: 'claimed' }]);
  });

  it('lets a waiting copy settle on the first request’s answer', async () => {
    const tenantId = randomUUID();
    const s = store(db);
    await s.claim([{ tenantId, key: 'wait', requestHash: hash }]);
    const waiting = store(other).settle({ tenantId, key: 'wait', requestHash: hash }, 10_000);
    await s.complete([{ tenantId, key: 'wait', status: 202, response: { ok: true } }]);
    expect(await waiting).toMatchObject({ state: 'done', status: 202 });
  });

  it('frees a released key for a retry, and a claim whose lease ran out', async () => {
    const tenantId = randomUUID();
    const s = store(db, { leaseMs: 30_000 });
    await s.claim([{ tenantId, key: 'released', requestHash: hash }, { tenantId, key: 'abandoned', requestHash: hash }]);
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
    await s.complete([{ tenantId, key: 'old', status: 202, response: { ok: true } }]);
    await s.settled();
    at += 48 * HOUR;
    expect(await s.sweep()).toBe(0);
    expect((await s.claim([{ tenantId, key: 'old', requestHash: hash }]))[0]?.state).toBe('done');
    at += 25 * HOUR;
    expect(await s.sweep()).toBeGreaterThan(0);
    expect(await s.claim([{ tenantId, key: 'old', requestHash: hash }])).toEqual([{ state: 'claimed' }]);
  });
});
