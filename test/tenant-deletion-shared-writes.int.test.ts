import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MIGRATIONS, createTenant, deleteTenant, SecretBox } from '@earshot/auth';
import { DATABASE_MIGRATIONS, migrate, ownerInTenant, sql, type ConnectionPool } from '@earshot/db';
import { IDEMPOTENCY_MIGRATIONS, IdempotencyStore } from '@earshot/idempotency';
import { holdLocks, openTestDatabase } from '@earshot/testing';

const hash = Buffer.alloc(32, 1);

/**
 * The gateway's idempotency claims go out in one statement for every
 * tenant's requests in flight. A tenant's deletion is one long transaction:
 * were its idempotency rows in it, a claim of that tenant's (a provider
 * retrying a delivery) would wait on their locks, and every other tenant's
 * claim in the same statement with it, until the deletion ended.
 */
describe("a tenant's deletion", () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  const master = new SecretBox(randomBytes(32));

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('tenant-deletion-shared-writes'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS, IDEMPOTENCY_MIGRATIONS]);
    // A table the deletion reaches after idempotency_keys (by name), whose row the test holds: the deletion then waits there.
    await db.query(sql`create table zz_deletion_probe (tenant_id uuid not null)`);
  });
  afterAll(async () => close());

  it("holds no other tenant's idempotency claims while it runs, and leaves none of its tenant's behind", async () => {
    const [deleting, other, first] = [
      (await createTenant(db, master, { name: 'Deleting' })).tenant.id,
      (await createTenant(db, master, { name: 'Other' })).tenant.id,
      (await createTenant(db, master, { name: 'First' })).tenant.id,
    ];
    const store = new IdempotencyStore(db, { scope: 'ingest', retentionMs: 72 * 3_600_000, now: () => new Date() });
    await store.claim([{ tenantId: deleting, key: 'delivery-1', requestHash: hash }]);
    await store.complete([{ tenantId: deleting, key: 'delivery-1', requestHash: hash, status: 200, response: null }]);
    await db.query(sql`insert into zz_deletion_probe values (${deleting})`);

    const probe = await holdLocks(db, sql`select 1 from zz_deletion_probe where tenant_id = ${deleting} for update`);
    const deletion = deleteTenant(db, deleting);
    // The deletion is under way once it waits for the probe's row.
    for (let waited = 0; ; waited += 20) {
      const [waiting] = (await db.query(
        sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like ${'%zz_deletion_probe%'} and query like ${'%delete%'}`,
      )) as unknown[];
      if (waiting !== undefined) break;
      if (waited > 10_000) throw new Error('the deletion never reached the probe table');
      await sleep(20);
    }

    // The first claim goes out alone; the retry and the other tenant's claim share the next statement.
    const alone = store.claim([{ tenantId: first, key: 'a', requestHash: hash }]);
    const retried = store.claim([{ tenantId: deleting, key: 'delivery-1', requestHash: hash }]);
    const settledFirst = await Promise.race([
      store.claim([{ tenantId: other, key: 'b', requestHash: hash }]).then(([claim]) => `other tenant: ${claim?.state}`),
      sleep(5_000).then(() => 'nothing within 5 s'),
    ]);
    await probe.release();
    expect(settledFirst).toBe('other tenant: claimed');
    expect(await alone).toEqual([{ state: 'claimed' }]);
    await retried;
    expect(await deletion).toBeGreaterThan(0);

    const [left] = (await ownerInTenant(db, deleting, (tx) =>
      tx.query(sql`select count(*)::int as rows from idempotency_keys where tenant_id = ${deleting}`),
    )) as { rows: number }[];
    expect(left?.rows).toBe(0);
  });
});
