import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@earshot/testing';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, type ConnectionPool } from '../src';

const TENANT_A = '00000000-0000-4000-8000-00000000000a';
const TENANT_B = '00000000-0000-4000-8000-00000000000b';

describe('tenant scope and migrations', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  const fixtures = { module: 'fixture', directory: new URL('./fixtures/migrations/', import.meta.url) };

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('db'));
  });
  afterAll(async () => close());

  it('applies each migration once, even when several processes migrate at the same time', async () => {
    const runs = await Promise.all([migrate(db, [DATABASE_MIGRATIONS, fixtures]), migrate(db, [DATABASE_MIGRATIONS, fixtures])]);
    expect(runs.flat().sort()).toEqual(['db/0001_tenant_role.sql', 'db/0002_leases.sql', 'db/0003_platform_role.sql', 'fixture/0001_notes.sql']);
    expect(await migrate(db, [DATABASE_MIGRATIONS, fixtures])).toEqual([]);
  });

  it('shows a tenant only its own rows, and a transaction with no tenant nothing', async () => {
    await db.query(sql`insert into notes (tenant_id, body) values (${TENANT_A}, 'a1'), (${TENANT_A}, 'a2'), (${TENANT_B}, 'b1')`);
    const seenByA = await inTenant(db, TENANT_A, (tx) => tx.query(sql`select body from notes order by body`));
    expect(seenByA.map((r: { body: string }) => r.body)).toEqual(['a1', 'a2']);
    const unscoped = await db.tx(async (tx) => {
      await tx.query(sql`set local role earshot_app`);
      return tx.query(sql`select body from notes`);
    });
    expect(unscoped).toEqual([]);
  });

  it('refuses a tenant writing a row for another tenant', async () => {
    await expect(inTenant(db, TENANT_A, (tx) => tx.query(sql`insert into notes (tenant_id, body) values (${TENANT_B}, 'sneaky')`))).rejects.toThrow(
      /row-level security/,
    );
  });

  it('does not leak the tenant to the next transaction on the same connection', async () => {
    await inTenant(db, TENANT_A, (tx) => tx.query(sql`select 1`));
    const after = await db.query(sql`select current_setting('earshot.tenant_id', true) as tenant, current_user as role`);
    expect(after[0]?.tenant ?? '').toBe('');
    expect(after[0]?.role).not.toBe('earshot_app');
  });
});
