import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@earshot/testing';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, TenantReads, type ConnectionPool } from '../src';

const TENANT_A = '00000000-0000-4000-8000-00000000000a';
const TENANT_B = '00000000-0000-4000-8000-00000000000b';

describe('tenant reads in one round trip', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  // One connection: every read below reuses what the one before left behind.
  let reads: TenantReads;

  beforeAll(async () => {
    let url: string;
    ({ db, url, close } = await openTestDatabase('tenant_reads'));
    await migrate(db, [DATABASE_MIGRATIONS, { module: 'fixture', directory: new URL('./fixtures/migrations/', import.meta.url) }]);
    await db.query(sql`insert into notes (tenant_id, body) values (${TENANT_A}, 'a1'), (${TENANT_A}, 'a2'), (${TENANT_B}, 'b1')`);
    reads = new TenantReads({ url, poolSize: 1, applicationName: 'test-tenant-reads' });
  });
  afterAll(async () => {
    await reads.dispose();
    await close();
  });

  it('shows a tenant only its own rows, as inTenant does', async () => {
    const statement = sql`select body from notes order by body`;
    expect(await reads.read<{ body: string }>(TENANT_A, statement)).toEqual([{ body: 'a1' }, { body: 'a2' }]);
    expect(await reads.read<{ body: string }>(TENANT_B, statement)).toEqual(await inTenant(db, TENANT_B, (tx) => tx.query(statement)));
  });

  it('plans the statement as the tenant role, with the tenant set, in the scope’s own transaction', async () => {
    const [row] = await reads.read<{ role: string; tenant: string; same: boolean }>(
      TENANT_A,
      sql`select current_user as role, current_setting('earshot.tenant_id') as tenant, now() = statement_timestamp() as same`,
    );
    expect(row).toMatchObject({ role: 'earshot_app', tenant: TENANT_A });
    // now() is the transaction's start: it differs from this statement's start only if the scope ran first in the same transaction.
    expect(row?.same).toBe(false);
  });

  it('leaves nothing set on the connection for whoever uses it next', async () => {
    await reads.read(TENANT_A, sql`select 1`);
    // The next read's statement sees the scope its own pipeline set; a third party on the connection would see none of it.
    const [seen] = await reads.read<{ earlier: string }>(TENANT_B, sql`select current_setting('earshot.tenant_id') as earlier`);
    expect(seen?.earlier).toBe(TENANT_B);
    const [after] = (await db.query(
      sql`select count(*)::int as open from pg_stat_activity where application_name = 'test-tenant-reads' and state <> 'idle'`,
    )) as { open: number }[];
    expect(after?.open).toBe(0);
  });

  it('answers a failed statement with its error and keeps the connection usable', async () => {
    await expect(reads.read(TENANT_A, sql`insert into notes (tenant_id, body) values (${TENANT_B}, 'sneaky') returning body`)).rejects.toThrow(
      /row-level security/,
    );
    await expect(reads.read(TENANT_A, sql`select 1 / 0`)).rejects.toThrow(/division by zero/);
    expect(await reads.read<{ n: number }>(TENANT_A, sql`select count(*) as n from notes`)).toEqual([{ n: 2 }]);
  });

  it('reads bigint as a number, as the connection pool does', async () => {
    const statement = sql`select 9007199254740991::int8 as big, ${'b1'}::text as text`;
    expect(await reads.read(TENANT_B, statement)).toEqual(await inTenant(db, TENANT_B, (tx) => tx.query(statement)));
  });

  it('prepares each statement once on a connection and runs it again without parsing it', async () => {
    const statement = sql`select body from notes where body like ${'a%'} order by body`;
    for (let i = 0; i < 3; i++) expect(await reads.read(TENANT_A, statement)).toEqual([{ body: 'a1' }, { body: 'a2' }]);
    const prepared = await reads.read<{ statement: string; runs: number }>(
      TENANT_A,
      sql`select statement, (generic_plans + custom_plans)::int as runs from pg_prepared_statements where statement like '%from notes where body like%' and statement not like '%pg_prepared_statements%'`,
    );
    expect(prepared).toEqual([{ statement: 'select body from notes where body like $1 order by body', runs: 3 }]);
  });
});
