import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@earshot/testing';
import { claimLease, DATABASE_MIGRATIONS, leaseHeld, migrate, releaseLease, sql, type ConnectionPool } from '../src';

describe('leases in Postgres', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('leases'));
    await migrate(db, [DATABASE_MIGRATIONS]);
  });
  afterAll(async () => close());

  it('grants a free lease to one holder, renews it with the same token and refuses the others', async () => {
    const first = await claimLease(db, 'round', 'a', 60_000);
    expect(first).toMatchObject({ holder: 'a', acquired: true });
    expect(await claimLease(db, 'round', 'b', 60_000)).toBeUndefined();
    const renewed = await claimLease(db, 'round', 'a', 60_000);
    expect(renewed).toMatchObject({ token: first?.token, acquired: false });
    expect(await leaseHeld(db, { name: 'round', token: first?.token ?? -1 })).toBe(true);
  });

  it('lets one of many simultaneous claimants win', async () => {
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimLease(db, 'contended', `p${i}`, 60_000)));
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
  });

  it('hands an expired lease to the next claimant with a greater token, which fences the old holder off', async () => {
    const old = await claimLease(db, 'expiring', 'a', 60_000);
    await db.query(sql`update leases set expires_at = clock_timestamp() - interval '1 second' where name = 'expiring'`);
    expect(await leaseHeld(db, { name: 'expiring', token: old?.token ?? -1 })).toBe(false);
    const taken = await claimLease(db, 'expiring', 'b', 60_000);
    expect(taken).toMatchObject({ holder: 'b', acquired: true, token: (old?.token ?? 0) + 1 });
    // The old holder coming back finds it taken.
    expect(await claimLease(db, 'expiring', 'a', 60_000)).toBeUndefined();
  });

  it('gives a released lease away at once', async () => {
    await claimLease(db, 'released', 'a', 60_000);
    await releaseLease(db, { name: 'released', holder: 'a' });
    expect(await claimLease(db, 'released', 'b', 60_000)).toMatchObject({ holder: 'b', acquired: true });
  });
});
