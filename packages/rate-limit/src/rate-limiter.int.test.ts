import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, migrate, openDatabase, type ConnectionPool } from '@earshot/db';
import { openTestDatabase } from '@earshot/testing';
import { RATE_LIMIT_MIGRATIONS } from './index';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  let db: ConnectionPool;
  let other: ConnectionPool;
  let close: () => Promise<void>;
  let at = Date.parse('2026-03-02T10:00:10Z');
  const now = () => new Date(at);

  beforeAll(async () => {
    const opened = await openTestDatabase('rate-limit');
    ({ db, close } = opened);
    other = openDatabase({ url: opened.url, applicationName: 'test-rate-limit-other' });
    await migrate(db, [DATABASE_MIGRATIONS, RATE_LIMIT_MIGRATIONS]);
  });
  afterAll(async () => {
    await other.dispose();
    await close();
  });

  const check = (cost = 1) => [{ bucket: 'tenant:t1:requests', limit: 5, cost }];

  it('admits up to the limit in a window, then refuses with the time to the reset', async () => {
    const limiter = new RateLimiter(db, { now });
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await limiter.take(check()));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[5]).toMatchObject({ limit: 5, resetSeconds: 50 });
    at += 60_000;
    expect((await limiter.take(check())).allowed).toBe(true);
    await limiter.stop();
  });

  it('shares the count between processes through Postgres after a sync', async () => {
    at += 60_000;
    const first = new RateLimiter(db, { now });
    const second = new RateLimiter(other, { now });
    for (let i = 0; i < 3; i++) expect((await first.take(check())).allowed).toBe(true);
    await first.sync();
    const fromSecond = [];
    for (let i = 0; i < 3; i++) fromSecond.push((await second.take(check())).allowed);
    expect(fromSecond).toEqual([true, true, false]);
    await second.sync();
    await first.sync();
    expect((await first.take(check())).allowed).toBe(false);
    await Promise.all([first.stop(), second.stop()]);
  });

  it('counts nothing against any check when one is exhausted, and counts events by their number', async () => {
    at += 60_000;
    const limiter = new RateLimiter(db, { now });
    const checks = (events: number) => [
      { bucket: 'tenant:t2:requests', limit: 10, cost: 1 },
      { bucket: 'tenant:t2:events', limit: 5, cost: events },
    ];
    expect((await limiter.take(checks(4))).allowed).toBe(true);
    expect(await limiter.take(checks(2))).toMatchObject({ allowed: false, limit: 5, remaining: 1 });
    expect(await limiter.take(checks(1))).toMatchObject({ allowed: true, limit: 5, remaining: 0 });
    await limiter.stop();
  });

  it('keeps syncing every other bucket when PostgreSQL refuses one bucket’s count (beyond an int), dropping that one aloud', async () => {
    at += 60_000;
    const errors: unknown[] = [];
    const limiter = new RateLimiter(db, { now, onError: (error) => errors.push(error) });
    const reader = new RateLimiter(other, { now });
    expect((await limiter.take([{ bucket: 'tenant:huge:events', limit: 2 ** 40, cost: 2 ** 33 }])).allowed).toBe(true);
    expect((await limiter.take([{ bucket: 'tenant:t3:requests', limit: 5, cost: 4 }])).allowed).toBe(true);
    await limiter.sync();
    expect(errors).toHaveLength(1);
    // The other process sees the bucket that went through: one more fits, two do not.
    expect((await reader.take([{ bucket: 'tenant:t3:requests', limit: 5, cost: 2 }])).allowed).toBe(false);
    await Promise.all([limiter.stop(), reader.stop()]);
  });
});
