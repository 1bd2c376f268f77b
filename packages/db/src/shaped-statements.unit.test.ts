import { describe, expect, it } from 'vitest';
import { sql } from './database';
import { shapedQuery, type Shaped } from './shaped-statements';

/** A statement as node-postgres is handed it. */
const formatted = (shaped: Shaped) =>
  shapedQuery(shaped).format({
    escapeIdentifier: (name) => `"${name}"`,
    formatValue: (value, index) => ({ placeholder: `$${index + 1}`, value }),
  });

/** A shape of a table and its columns, as a caller names one: each column's values an array. */
function insert(table: string, columns: readonly string[], values: readonly unknown[], written: { count: number }): Shaped {
  return {
    shape: `insert ${table}(${columns.join()})`,
    values,
    write: (next) => {
      written.count += 1;
      return sql`
        insert into ${sql.ident(table)} (${sql.join(
          columns.map((c) => sql.ident(c)),
          sql`, `,
        )})
        select * from unnest(${sql.join(
          columns.map(() => sql`${next()}::text[]`),
          sql`, `,
        )})`;
    },
  };
}

describe('shaped statements', () => {
  it('write a shape once, and put each run’s values in its text', () => {
    const written = { count: 0 };
    const first = formatted(insert('calls', ['a', 'b'], [['1'], ['x']], written));
    const second = formatted(
      insert(
        'calls',
        ['a', 'b'],
        [
          ['2', '3'],
          ['y', 'z'],
        ],
        written,
      ),
    );
    expect(written.count).toBe(1);
    expect(first.text).toBe('insert into "calls" ("a", "b")\nselect * from unnest($1::text[], $2::text[])');
    expect(second.text).toBe(first.text);
    expect(first.values).toEqual([['1'], ['x']]);
    expect(second.values).toEqual([
      ['2', '3'],
      ['y', 'z'],
    ]);
  });

  it('write another shape for other columns', () => {
    const written = { count: 0 };
    const one = formatted(insert('turns', ['a'], [['1']], written));
    const two = formatted(insert('turns', ['a', 'b'], [['1'], ['2']], written));
    expect(written.count).toBe(2);
    expect(one.text).not.toBe(two.text);
  });

  it('refuse a shape whose values are not placed one each, in order', () => {
    const a = sql.value('a');
    expect(() => formatted({ shape: 'too few placed', values: ['a', 'b'], write: (next) => sql`select ${next()}` })).toThrow(/2 values, 1 placed/);
    expect(() => formatted({ shape: 'a value of its own', values: ['a'], write: (next) => sql`select ${next()}, ${a}` })).toThrow(/a value in its text/);
    expect(() =>
      formatted({
        shape: 'out of order',
        values: ['a', 'b'],
        write: (next) => {
          const first = next();
          return sql`select ${next()}, ${first}`;
        },
      }),
    ).toThrow(/out of order/);
  });
});
