import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, LeaseLost, migrate, openDatabase, sql, type ConnectionPool } from '@earshot/db';
import { openTestDatabase } from '@earshot/testing';
import { runAsSingleton, type Fence, type Singleton } from './singleton';

const TTL_MS = 900;
const until = async (check: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('rounds that run in one process at a time, under a lease', () => {
  let db: ConnectionPool;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, url, close } = await openTestDatabase('singleton'));
    await migrate(db, [DATABASE_MIGRATIONS]);
  });
  afterAll(async () => close());

  /** A "process": its own pool and its own singleton, noting when each of its rounds ran. */
  function instance(name: string, label: string) {
    const pool = openDatabase({ url, poolSize: 2, applicationName: `test-singleton-${label}` });
    const rounds: number[] = [];
    const fences: Fence[] = [];
    const singleton: Singleton = runAsSingleton({ db: pool, name, intervalMs: 50, ttlMs: TTL_MS, onError: () => undefined }, async (fence) => {
      rounds.push(Date.now());
      fences.push(fence);
    });
    return { pool, rounds, fences, singleton };
  }

  it('runs rounds in one of two processes only, and hands over at once when the holder stops', async () => {
    const a = instance('clean', 'a');
    const b = instance('clean', 'b');
    await until(() => a.rounds.length + b.rounds.length >= 10, 5_000);
    expect(Math.min(a.rounds.length, b.rounds.length)).toBe(0);
    const [holder, standby] = a.rounds.length > 0 ? [a, b] : [b, a];
    const stoppedAt = Date.now();
    await holder.singleton.stop();
    await until(() => standby.rounds.length > 0, 5_000);
    // A clean stop releases the lease: the standby takes over at its next claim, well before the lease would have expired.
    expect((standby.rounds[0] ?? 0) - stoppedAt).toBeLessThan(TTL_MS);
    await standby.singleton.stop();
    await Promise.all([a.pool.dispose(), b.pool.dispose()]);
  });

  it('moves the work within the lease time and a third when the holder loses the database, and fences the old holder off', async () => {
    const a = instance('crash', 'a');
    await until(() => a.rounds.length > 0, 5_000);
    const b = instance('crash', 'b');
    await new Promise((resolve) => setTimeout(resolve, TTL_MS));
    expect(b.rounds).toEqual([]);
    // The holder's connections go, as when its process is killed: it can no longer renew.
    const lostAt = Date.now();
    await a.pool.dispose();
    await until(() => b.rounds.length > 0, 10_000);
    const handOverMs = (b.rounds[0] ?? 0) - lostAt;
    console.log(`[singleton] hand-over after the holder lost the database: ${handOverMs} ms (lease ${TTL_MS} ms)`);
    expect(handOverMs).toBeLessThanOrEqual(TTL_MS + TTL_MS / 3 + 500);
    // The old holder's fence, checked on the database (as it would be if it came back), is refused.
    const stale = a.fences.at(-1);
    await expect(stale?.confirm(db)).rejects.toBeInstanceOf(LeaseLost);
    await expect(b.fences.at(-1)?.confirm(db)).resolves.toBeUndefined();
    expect((await db.query(sql`select token from leases where name = 'crash'`))[0]).toEqual({ token: (stale?.token ?? 0) + 1 });
    await Promise.all([a.singleton.stop(), b.singleton.stop()]);
    await b.pool.dispose();
  });
});
