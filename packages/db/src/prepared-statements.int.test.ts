import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@earshot/testing';
import { prepared, sql, type ConnectionPool, type Queryable } from '../src';
import { PREPARED_STATEMENTS } from './prepared-statements';

/** The statements this connection holds prepared, by their text. */
async function preparedHere(tx: Queryable): Promise<string[]> {
  const rows = (await tx.query(sql`select statement from pg_prepared_statements`)) as { statement: string }[];
  return rows.map((r) => r.statement);
}

describe('prepared statements in Postgres', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('prepared'));
  });
  afterAll(async () => close());

  it('prepares a marked statement on its repeats-th run, and answers for each run’s own parameters', async () => {
    await db.tx(async (tx) => {
      const seen: number[] = [];
      for (let run = 1; run <= PREPARED_STATEMENTS.repeats + 2; run++) {
        const [row] = (await tx.query(prepared(sql`select ${run}::int * 10 as tenfold /* marked */`))) as { tenfold: number }[];
        seen.push(row?.tenfold ?? -1);
        const held = (await preparedHere(tx)).filter((text) => text.includes('/* marked */'));
        expect(held).toHaveLength(run < PREPARED_STATEMENTS.repeats ? 0 : 1);
      }
      expect(seen).toEqual([10, 20, 30, 40, 50]);
    });
  });

  it('never prepares a statement that is not marked', async () => {
    await db.tx(async (tx) => {
      for (let run = 0; run < PREPARED_STATEMENTS.repeats * 2; run++) await tx.query(sql`select ${run}::int as n /* unmarked */`);
      expect((await preparedHere(tx)).filter((text) => text.includes('/* unmarked */'))).toEqual([]);
    });
  });

  it('writes to the table its name resolves to now: after a swap by renames, and under another search path', async () => {
    await db.query(sql`create table swapped (n int); create schema other; create table other.swapped (n int)`);
    const insert = (n: number) => prepared(sql`insert into swapped (n) values (${n})`);
    await db.tx(async (tx) => {
      for (let n = 1; n <= PREPARED_STATEMENTS.repeats; n++) await tx.query(insert(n));
      expect((await preparedHere(tx)).filter((text) => text.includes('insert into swapped'))).toHaveLength(1);
      // As a replay swaps its fresh copy in: the old table renamed away, a new one under the name.
      await tx.query(sql`alter table swapped rename to swapped_before; create table swapped (n int)`);
      await tx.query(insert(100));
      await tx.query(sql`select set_config('search_path', 'other, public', true)`);
      await tx.query(insert(200));
    });
    expect(await db.query(sql`select n from swapped_before order by n`)).toEqual(Array.from({ length: PREPARED_STATEMENTS.repeats }, (_, i) => ({ n: i + 1 })));
    expect(await db.query(sql`select n from public.swapped`)).toEqual([{ n: 100 }]);
    expect(await db.query(sql`select n from other.swapped`)).toEqual([{ n: 200 }]);
  });

  it('names no more than its limit of texts, so what each connection keeps stays bounded', async () => {
    await db.tx(async (tx) => {
      for (let shape = 0; shape < PREPARED_STATEMENTS.limit + 8; shape++) {
        const text = sql.__dangerous__rawValue(`/* shape ${shape} */`);
        for (let run = 0; run < PREPARED_STATEMENTS.repeats; run++) await tx.query(prepared(sql`select ${run}::int as n ${text}`));
      }
      const shapes = (await preparedHere(tx)).filter((text) => text.includes('/* shape '));
      expect(shapes.length).toBeGreaterThan(0);
      expect(shapes.length).toBeLessThanOrEqual(PREPARED_STATEMENTS.limit);
      expect(shapes.some((text) => text.includes(`/* shape ${PREPARED_STATEMENTS.limit + 7} */`))).toBe(false);
    });
  });
});
