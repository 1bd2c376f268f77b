import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MIGRATIONS } from '@earshot/auth';
import { DATABASE_MIGRATIONS, migrate, shapedQuery, sql, type ConnectionPool } from '@earshot/db';
import { READ_MODELS, type Row } from '@earshot/read-models';
import { openTestDatabase } from '@earshot/testing';
import { PROJECTOR_MIGRATIONS } from './migration-sets';
import { loadColumnTypes, rowSet, textArray, typedColumns } from './row-arrays';

/** Every type a read model's column has, each a column here. */
const COLUMNS = {
  t: 'text',
  i: 'integer',
  b: 'bigint',
  d: 'double precision',
  f: 'boolean',
  u: 'uuid',
  at: 'timestamp with time zone',
  day: 'date',
  j: 'jsonb',
  list: 'text[]',
} as const;

/** Text as senders write it, and what an array literal must quote: quotes, backslashes, braces, commas, spaces, NULL. */
const text = fc.oneof(
  fc.string({ unit: 'binary' }).map((s) => s.replaceAll('\u0000', '')),
  fc.constantFrom('', 'NULL', 'null', 'NuLl', ' ', '"', '\\', '{}', '{a,b}', 'a,b', '\\"', '"NULL"', 'héllo wörld', '😀', '\t\n'),
);
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as Row[string]);

const row: fc.Arbitrary<Row> = fc.record(
  {
    t: fc.option(text),
    i: fc.option(fc.integer()),
    b: fc.option(fc.maxSafeInteger()),
    d: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
    f: fc.option(fc.boolean()),
    u: fc.option(fc.uuid()),
    at: fc.option(fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())),
    day: fc.option(fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))),
    j: fc.option(json),
    list: fc.option(fc.array(text, { maxLength: 4 })),
  },
  { requiredKeys: [] },
);

describe('rows as column arrays', () => {
  let db: ConnectionPool;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('row_arrays'));
    await migrate(db, [DATABASE_MIGRATIONS, AUTH_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    const columns = Object.entries(COLUMNS).map(([name, type]) => sql`${sql.ident(name)} ${sql.__dangerous__rawValue(type)}`);
    for (const table of ['by_arrays', 'by_json']) await db.query(sql`create table ${sql.ident(table)} (n integer, ${sql.join(columns, sql`, `)})`);
    await loadColumnTypes(db, ['by_arrays']);
  });
  afterAll(async () => close());

  it('store what json_populate_recordset stored from the same rows, whatever the text', async () => {
    const names = Object.keys(COLUMNS);
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 8 }), async (rows) => {
        await db.query(sql`truncate by_arrays, by_json`);
        const numbered = rows.map((r, n) => ({ ...r, n }));
        const all = ['n', ...names];
        const set = rowSet('by_arrays', all, numbered);
        await db.query(
          shapedQuery({
            ...set,
            write: (next) =>
              sql`insert into by_arrays (${sql.join(
                all.map((c) => sql.ident(c)),
                sql`, `,
              )}) select ${typedColumns('by_arrays', all)} from ${set.write(next)}`,
          }),
        );
        await db.query(sql`insert into by_json select * from json_populate_recordset(null::by_json, ${JSON.stringify(numbered)}::json)`);
        const read = (table: string) => db.query(sql`select to_jsonb(stored) as r from ${sql.ident(table)} stored order by n`);
        expect(await read('by_arrays')).toEqual(await read('by_json'));
      }),
      { numRuns: 200 },
    );
  });

  it('put facts beside their rows, one each, whatever their text', async () => {
    const facts = ['{"a":"b,c"}', '', '"NULL"', '{"x":"\\u001f"}'];
    const rows = facts.map((_, n) => ({ n }));
    const set = rowSet('by_arrays', ['n'], rows, facts);
    const read = await db.query(shapedQuery({ ...set, write: (next) => sql`select r.n::int as n, r.facts from ${set.write(next)}` }));
    expect(read).toEqual(facts.map((f, n) => ({ n, facts: f })));
  });

  it('write text as a text[] literal Postgres reads back as it was, whatever the text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { maxLength: 8 }), async (texts) => {
        const [read] = (await db.query(sql`select ${textArray(texts)}::text[] as texts`)) as { texts: string[] }[];
        expect(read?.texts).toEqual(texts);
      }),
      { numRuns: 200 },
    );
  });

  it('cover every type a read model stores', async () => {
    const types = (await db.query(sql`
      select distinct format_type(a.atttypid, a.atttypmod) as type from pg_attribute a join pg_class c on c.oid = a.attrelid
       where c.relname = any(${READ_MODELS.map((p) => p.table)}::text[]) and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`)) as { type: string }[];
    expect(Object.values(COLUMNS)).toEqual(expect.arrayContaining(types.map((t) => t.type)));
  });
});
