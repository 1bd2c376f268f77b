import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@earshot/testing';
import createConnectionPool from '@databases/pg';
import { attachPlatformPool, DATABASE_MIGRATIONS, inPlatform, migrate, openDatabase, PLATFORM_ROLE, platformQuery, sql, type ConnectionPool } from '../src';

describe('the platform role’s statements', () => {
  let db: ConnectionPool;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, url, close } = await openTestDatabase('platform_scope'));
    await migrate(db, [DATABASE_MIGRATIONS]);
  });
  afterAll(async () => close());

  it('run as the platform role, one statement in one round trip: its own transaction, no begin, role switch or commit around it', async () => {
    const [row] = (await platformQuery(db, sql`select current_user as role, now() = statement_timestamp() as alone`)) as { role: string; alone: boolean }[];
    // In a transaction that began before it (begin, then the role), a statement's start is later than the transaction's.
    expect(row).toEqual({ role: PLATFORM_ROLE, alone: true });
  });

  it('run whole transactions as the platform role, leaving the caller’s pool as it connected', async () => {
    const roles = await inPlatform(db, async (tx) => [
      ...((await tx.query(sql`select current_user as role`)) as { role: string }[]),
      ...((await tx.query(sql`select current_user as role`)) as { role: string }[]),
    ]);
    expect(roles.map((r) => r.role)).toEqual([PLATFORM_ROLE, PLATFORM_ROLE]);
    const [own] = (await db.query(sql`select current_user as role, session_user as login`)) as { role: string; login: string }[];
    expect(own?.role).toBe(own?.login);
  });

  it('close with the pool they came with', async () => {
    const pool = openDatabase({ url, poolSize: 2, applicationName: 'platform-scope-test' });
    await platformQuery(pool, sql`select 1`);
    const open = async () =>
      ((await db.query(sql`select count(*)::int as n from pg_stat_activity where application_name like 'platform-scope-test%'`)) as { n: number }[])[0]?.n;
    expect(await open()).toBeGreaterThanOrEqual(1);
    await pool.dispose();
    for (let waited = 0; (await open()) !== 0 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await open()).toBe(0);
  });

  it('refuse to run when their sessions do not start as the platform role (a pooler dropped the startup option)', async () => {
    const plain = () => createConnectionPool({ connectionString: url, poolSize: 1, bigIntMode: 'number' });
    const pool = attachPlatformPool(plain(), plain);
    await expect(platformQuery(pool, sql`select 1`)).rejects.toThrow(/dropped the startup option "-c role=earshot_platform"/);
    await pool.dispose();
  });
});
