import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, removeCluster, sql, startPostgres, stopPostgres } from '@earshot/db';
import { statementTimes } from '../bench/statement-times';

const quiet = () => undefined;

/**
 * A server of its own, not the suite's: whether a server loads
 * pg_stat_statements is decided when it starts, and a DATABASE_URL of the
 * user's need not.
 */
describe("a bench's Postgres statement figures", () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'earshot-statements-'));
  afterAll(() => {
    stopPostgres(stateDir);
    removeCluster(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  });

  const phase = async (disposable: boolean) => {
    const { url } = await startPostgres({ stateDir, portVariable: 'TEST_PORT', disposable }, quiet);
    const db = openDatabase({ url, poolSize: 2, applicationName: 'statement-times-test' });
    try {
      const counting = await (await statementTimes(db, 'postgres')).count();
      await db.query(sql`create table if not exists calls (id int)`);
      for (let i = 0; i < 10; i++) await db.query(sql`insert into calls select g from generate_series(1, 1000) g`);
      return await counting(10_000, 'b1_');
    } finally {
      await db.dispose();
      stopPostgres(stateDir);
    }
  };

  it("are 'n/a', saying why, on a kept server, which does not count its statements", async () => {
    const { figures, line } = await phase(false);
    expect(figures).toEqual({ b1_postgres_statement_us_per_event: 'n/a', b1_postgres_statements: 'n/a' });
    expect(line).toMatch(/^Postgres statements: n\/a \(this Postgres does not load pg_stat_statements/);
  }, 120_000);

  it("name a test server's statements of the phase, the costliest first, with their time an event", async () => {
    const { figures, line } = await phase(true);
    const statements = figures.b1_postgres_statements;
    if (!Array.isArray(statements)) throw new Error(`no statements: ${line}`);
    expect(statements[0]).toMatchObject({ statement: 'writes calls', calls: 10 });
    expect(statements[0]?.share).toBeGreaterThan(0.5);
    expect(figures.b1_postgres_statement_us_per_event).toBeGreaterThan(0);
    expect(line).toMatch(/^Postgres statement time [\d.]+ µs an event: \d+% writes calls/);
  }, 120_000);
});
