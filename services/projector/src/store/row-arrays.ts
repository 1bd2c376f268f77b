import { sql, type Queryable, type Shaped, type SQLQuery } from '@earshot/db';
import type { Cell, Row } from '@earshot/read-models';

/**
 * Rows handed to Postgres a column at a time, each an array of its column's
 * type, rather than as JSON objects for json_populate_recordset, which built a
 * hash table of each object's fields (psql, 1,000 `turns` rows: 7.5 ms that
 * way, 2.8 ms this way). The arrays are written here, not by the client, which
 * quotes and escapes every element: 1.9 µs a row of `turns` against 0.6, what
 * JSON.stringify took.
 */

/** Column types by table, as format_type writes them: the same in the live tables and a replay's copy, made by the same migrations. */
const typesOf = new Map<string, ReadonlyMap<string, string>>();

/** Reads the column types of the tables not read yet, resolving their names by the transaction's search path. */
export async function loadColumnTypes(tx: Queryable, tables: Iterable<string>): Promise<void> {
  const missing = [...new Set(tables)].filter((table) => !typesOf.has(table));
  if (missing.length === 0) return;
  const rows = (await tx.query(sql`
    select t.name as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as type
      from unnest(${missing}::text[]) as t(name)
      join pg_attribute a on a.attrelid = t.name::regclass and a.attnum > 0 and not a.attisdropped`)) as { table: string; column: string; type: string }[];
  for (const table of missing) typesOf.set(table, new Map(rows.filter((r) => r.table === table).map((r) => [r.column, r.type])));
}

/** An array column's values go as text, each an array literal: unnest would flatten an array of arrays. */
const isArray = (type: string) => type.endsWith('[]');

/** A column the table lacks goes as text, and Postgres refuses the statement naming it, as it refused it before. */
const typeOf = (table: string, column: string): string => typesOf.get(table)?.get(column) ?? 'text';

/** An array literal's element: quoted unless it is plainly one word, so no text reads as NULL or splits. */
function element(text: string): string {
  // Compared only at four characters: toUpperCase copies the whole text.
  return /^[^"\\{},\s]+$/.test(text) && (text.length !== 4 || text.toUpperCase() !== 'NULL') ? text : `"${text.replace(/["\\]/g, '\\$&')}"`;
}

/** A cell as the text its column's type reads, as json_populate_recordset read the same JSON value; null for NULL. */
function textOf(cell: Cell | undefined, type: string): string | null {
  if (cell === null || cell === undefined) return null;
  if (type === 'json' || type === 'jsonb') return JSON.stringify(cell);
  if (Array.isArray(cell)) return isArray(type) ? arrayLiteral(cell as readonly Cell[]) : JSON.stringify(cell);
  if (typeof cell === 'object') return JSON.stringify(cell);
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : null;
  return String(cell);
}

/** A cell as an array literal's element. A finite number is written as it is: digits, signs, dots and exponents need no quotes. */
function elementOf(cell: Cell | undefined, type: string): string {
  if (typeof cell === 'number' && Number.isFinite(cell)) return String(cell);
  const text = textOf(cell, type);
  return text === null ? 'NULL' : element(text);
}

/**
 * Elements joined once: appending each to the literal made two strings an element, and a statement's arrays run to
 * thousands of elements.
 */
function arrayLiteral(cells: readonly (Cell | undefined)[], type = 'text'): string {
  const elements = new Array<string>(cells.length);
  for (let i = 0; i < cells.length; i++) elements[i] = elementOf(cells[i], type);
  return `{${elements.join(',')}}`;
}

/** Text as a `text[]` literal, as the client would write an array of it, without its quoting of every element. */
export function textArray(texts: Iterable<string>): string {
  return arrayLiteral([...texts]);
}

/** One column of the rows as an array literal. */
function columnLiteral(rows: readonly Row[], column: string, type: string): string {
  const elements = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) elements[i] = elementOf((rows[i] as Row)[column], type);
  return `{${elements.join(',')}}`;
}

/**
 * Documents' facts go beside their rows as one text Postgres splits: as array elements each would be escaped and
 * read once more (a call's facts run to kilobytes of quotes). JSON text holds no control character, so U+001E
 * (`chr(30)`) parts them.
 */
const APART = '\u001e';

/**
 * The rows as a set named `r` of the given columns, as text; with `facts`, a text column of those too, one a row. The
 * table and columns name its text: their types are the table's, read before any statement is written.
 */
export function rowSet(table: string, columns: readonly string[], rows: readonly Row[], facts?: readonly string[]): Shaped {
  const types = columns.map((column) => typeOf(table, column));
  const values: unknown[] = columns.map((column, i) => columnLiteral(rows, column, types[i] as string));
  if (facts) values.push(facts.join(APART));
  return {
    shape: `${table}(${columns.join()})${facts ? '+facts' : ''}`,
    values,
    write: (next) => {
      const arrays = types.map((type) => sql`${next()}::${sql.__dangerous__rawValue(isArray(type) ? 'text[]' : `${type}[]`)}`);
      if (facts) arrays.push(sql`string_to_array(${next()}::text, chr(30))`);
      return sql`unnest(${sql.join(arrays, sql`, `)}) as r (${sql.join(
        [...columns, ...(facts ? ['facts'] : [])].map((c) => sql.ident(c)),
        sql`, `,
      )})`;
    },
  };
}

/** The set's columns, each cast to its table's type for it. */
export function typedColumns(table: string, columns: readonly string[]): SQLQuery {
  return sql.join(
    columns.map((column) => {
      const type = typeOf(table, column);
      return isArray(type) ? sql`r.${sql.ident(column)}::${sql.__dangerous__rawValue(type)}` : sql`r.${sql.ident(column)}`;
    }),
    sql`, `,
  );
}
