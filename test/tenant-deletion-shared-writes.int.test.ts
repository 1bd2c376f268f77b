import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MIGRATIONS, createTenant, DataKeys, deleteTenant, SecretBox } from '@earshot/auth';
import { DATABASE_MIGRATIONS, migrate, ownerInTenant, sql, type ConnectionPool } from '@earshot/db';
import { IDEMPOTENCY_MIGRATIONS, IdempotencyStore } from '@earshot/idempotency';
import { holdLocks, openTestDatabase, settledWithin } from '@earshot/testing';

const hash = Buffer.alloc(32, 1);

/**
 * A tenant's deletion is one long transaction, which locks every row it
 * deletes until it ends. Writers shared across tenants must not meet those
 * locks: the gateway's idempotency claims go out in one statement for every
 * tenant's requests in flight, and a projector batch writes every tenant of
 * its partition in one transaction. The tenant's idempotency keys and data
 * keys go apart, before it.
 */
describe("a tenant's deletion", () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  const master = new SecretBox(randomBytes(32));

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('tenant-deletion-shared-writes'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS, IDEMPOTENCY_MIGRATIONS]);
    // A table the deletion reaches after the others (by name), whose row the test holds: the deletion then waits there.
    await db.query(sql`create table zz_deletion_probe (tenant_id uuid not null)`);
  });
  afterAll(async () => close());

  const newTenant = async (name: string) => (await createTenant(db, master, { name })).tenant.id;

  /** The tenant's deletion, caught mid-way: it has deleted every table but the probe's, and waits on the probe's row. */
  async function heldDeletion(tenantId: string): Promise<{ deletion: Promise<number | undefined>; release: () => Promise<void> }> {
    await db.query(sql`insert into zz_deletion_probe values (${tenantId})`);
    const probe = await holdLocks(db, sql`select 1 from zz_deletion_probe where tenant_id = ${tenantId} for update`);
    const deletion = deleteTenant(db, tenantId);
    for (let waited = 0; ; waited += 20) {
      const [waiting] = (await db.query(
        sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like ${'%zz_deletion_probe%'} and query like ${'%delete%'}`,
      )) as unknown[];
      if (waiting !== undefined) return { deletion, release: probe.release };
      if (waited > 10_000) throw new Error('the deletion never reached the probe table');
      await sleep(20);
    }
  }

  it("holds no other tenant's idempotency claims while it runs, and leaves none of its tenant's behind", async () => {
    const [deleting, other, first] = [await newTenant('Deleting'), await newTenant('Other'), await newTenant('First')];
    const store = new IdempotencyStore(db, { scope: 'ingest', retentionMs: 72 * 3_600_000, now: () => new Date() });
    await store.claim([{ tenantId: deleting, key: 'delivery-1', requestHash: hash }]);
    await store.complete([{ tenantId: deleting, key: 'delivery-1', requestHash: hash, status: 200, response: null }]);
    const { deletion, release } = await heldDeletion(deleting);

    // The first claim goes out alone; the retry and the other tenant's claim share the next statement.
    const alone = store.claim([{ tenantId: first, key: 'a', requestHash: hash }]);
    const retried = store.claim([{ tenantId: deleting, key: 'delivery-1', requestHash: hash }]);
    const settledFirst = await settledWithin(
      store.claim([{ tenantId: other, key: 'b', requestHash: hash }]).then(([claim]) => `other tenant: ${claim?.state}`),
      5_000,
      'nothing within 5 s',
    );
    await release();
    expect(settledFirst).toBe('other tenant: claimed');
    expect(await alone).toEqual([{ state: 'claimed' }]);
    await retried;
    expect(await deletion).toBeGreaterThan(0);

    const [left] = (await ownerInTenant(db, deleting, (tx) =>
      tx.query(sql`select count(*)::int as rows from idempotency_keys where tenant_id = ${deleting}`),
    )) as { rows: number }[];
    expect(left?.rows).toBe(0);
  });

  it('shreds its data keys before it locks its rows, so a projector batch finds its events erased without waiting', async () => {
    const deleting = await newTenant('Shredded');
    const keys = new DataKeys(db, master);
    const callKey = (await keys.forCalls(deleting, ['call-1'])).get('call-1');
    const tenantKey = await keys.forTenant(deleting);
    const ids = [callKey?.id ?? '', tenantKey.id];
    expect((await keys.lookup(ids))(tenantKey.id)).toBeDefined();
    const { deletion, release } = await heldDeletion(deleting);

    // What a projector batch does with the tenant's events: look their keys up, then hold them in its transaction.
    const lookup = await new DataKeys(db, master).lookup(ids);
    const held = await settledWithin(
      db.tx((tx) => DataKeys.hold(tx, ids)).then((found) => `held: ${[...found].join(', ') || 'none'}`),
      5_000,
      'still waiting after 5 s',
    );
    await release();
    expect(ids.map((id) => lookup(id))).toEqual([undefined, undefined]);
    expect(held).toBe('held: none');
    expect(await deletion).toBeGreaterThan(0);
  });
});
