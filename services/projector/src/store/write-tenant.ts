import { sql, switchTenant, type SQLQuery } from '@earshot/db';
import type { Derived } from '../effects';
import type { Sketch } from '../read-models/metric-rollups/sketch';
import type { Cell, CounterMerge, CounterProjection, DocumentProjection, RegisterProjection, Row } from '../read-models/projection';

export type Tx = Parameters<typeof switchTenant>[0];

/** Another projector wrote the same row between our read and our write; the batch is retried. */
export class ConcurrentWrite extends Error {
  override readonly name = 'ConcurrentWrite';
}

const ident = (name: string) => sql.ident(name);
const list = (names: readonly string[]) => sql.join(names.map(ident), sql`, `);
const keyOf = (row: Row, columns: readonly string[]) => JSON.stringify(columns.map((c) => row[c] ?? null));
const byKey = <T extends { sortKey: string }>(a: T, b: T) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0);

/** Rows as one jsonb parameter, cast by Postgres to the table's own row type. */
function rowsOf(table: string, rows: readonly Row[]): SQLQuery {
  return sql`jsonb_populate_recordset(null::${ident(table)}, ${JSON.stringify(rows)}::jsonb)`;
}

function insertRows(table: string, columns: readonly string[], rows: readonly Row[]): SQLQuery {
  return sql`insert into ${ident(table)} as t (${list(columns)}) select ${list(columns)} from ${rowsOf(table, rows)}`;
}

/** One table's multi-row upsert; documents expect every row written (else a concurrent writer got there first). */
interface TableWrite {
  table: string;
  statement: SQLQuery;
  expected: number | null;
}

/**
 * Applies one tenant's events inside the caller's transaction, which already
 * runs as the projector role: the tenant is set first, so row-level security
 * checks every row written. Events already applied are dropped first. Four
 * statements whatever the events: set the tenant, claim the events, read the
 * read-merge-write rows, and one statement that upserts every table at once
 * (a data-modifying CTE per table).
 */
export async function writeTenant(tx: Tx, tenantId: string, derived: readonly Derived[]): Promise<number> {
  await switchTenant(tx, tenantId);
  const fresh = await firstTimeOnly(tx, tenantId, derived);

  const documents = new Map<DocumentProjection<unknown>, Map<string, { key: Row; facts: unknown }>>();
  const registers = new Map<RegisterProjection, Map<string, Row>>();
  const counters = new Map<CounterProjection, Map<string, Row>>();
  for (const { effects } of fresh) {
    for (const effect of effects) {
      if ('facts' in effect) {
        const { projection } = effect;
        const pending = documents.get(projection) ?? new Map<string, { key: Row; facts: unknown }>();
        const slot = keyOf(effect.key, projection.key);
        const mine = pending.get(slot);
        pending.set(slot, { key: effect.key, facts: mine ? projection.merge(mine.facts, effect.facts) : effect.facts });
        documents.set(projection, pending);
      } else if (effect.projection.kind === 'register') {
        const pending = registers.get(effect.projection) ?? new Map<string, Row>();
        const slot = keyOf(effect.row, effect.projection.key);
        const mine = pending.get(slot);
        if (!mine || String(effect.row.precedence) > String(mine.precedence)) pending.set(slot, effect.row);
        registers.set(effect.projection, pending);
      } else {
        addCount(counters, effect.projection, effect.row);
      }
    }
  }

  const writes: TableWrite[] = [];
  const stored = await readDocuments(tx, tenantId, documents);
  for (const [projection, pending] of documents) {
    const { write, contributed } = documentWrite(tenantId, projection, [...pending.values()], stored);
    writes.push(write);
    const target = projection.contribution?.to;
    if (target) for (const row of contributed) addCount(counters, target, row);
  }
  for (const [projection, pending] of registers) writes.push(registerWrite(tenantId, projection, [...pending.values()]));
  for (const [projection, pending] of counters) writes.push(counterWrite(tenantId, projection, [...pending.values()]));
  await writeAll(tx, writes);
  return fresh.length;
}

async function writeAll(tx: Tx, writes: readonly TableWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const name = (i: number) => ident(`w${i}`);
  const [counts] = await tx.query(sql`
    with ${sql.join(writes.map((w, i) => sql`${name(i)} as (${w.statement} returning 1)`), sql`, `)}
    select ${sql.join(writes.map((_w, i) => sql`(select count(*)::int from ${name(i)}) as ${name(i)}`), sql`, `)}`);
  writes.forEach((w, i) => {
    const written = Number(counts?.[`w${i}`] ?? 0);
    if (w.expected !== null && written !== w.expected) throw new ConcurrentWrite(`${w.table}: ${w.expected - written} rows changed under us`);
  });
}

async function firstTimeOnly(tx: Tx, tenantId: string, derived: readonly Derived[]): Promise<Derived[]> {
  const first = new Map<string, Derived>();
  for (const d of derived) if (!first.has(d.dedupeKey)) first.set(d.dedupeKey, d);
  if (first.size === 0) return [];
  const inserted: { idempotency_key: string }[] = await tx.query(sql`
    insert into applied_events (tenant_id, idempotency_key)
    select ${tenantId}::uuid, k from unnest(${[...first.keys()]}::text[]) as k
    on conflict do nothing
    returning idempotency_key`);
  return inserted.map((r) => first.get(r.idempotency_key)).filter((d): d is Derived => d !== undefined);
}

type StoredDocuments = Map<string, { facts: Cell; revision: number }>;

/** The stored facts of every row the batch touches, all tables in one statement, keyed by table and key. */
async function readDocuments(tx: Tx, tenantId: string, documents: Map<DocumentProjection<unknown>, Map<string, { key: Row; facts: unknown }>>): Promise<StoredDocuments> {
  const reads = [...documents].map(([projection, pending]) => {
    const keys = ['tenant_id', ...projection.key];
    const wanted = [...pending.values()].map((i) => ({ tenant_id: tenantId, ...i.key }));
    return sql`
      select ${projection.table}::text as "table", jsonb_build_array(${list(keys)}) as key, facts, revision from ${ident(projection.table)}
      where (${list(keys)}) in (select ${list(keys)} from ${rowsOf(projection.table, wanted)})`;
  });
  if (reads.length === 0) return new Map();
  const rows: { table: string; key: Cell[]; facts: Cell; revision: number }[] = await tx.query(sql.join(reads, sql` union all `));
  return new Map(rows.map((r) => [`${r.table}:${JSON.stringify(r.key)}`, { facts: r.facts, revision: Number(r.revision) }]));
}

/** Merge in TypeScript (the only place the merge rules live); `revision` catches a concurrent writer. */
function documentWrite(tenantId: string, projection: DocumentProjection<unknown>, items: { key: Row; facts: unknown }[], stored: StoredDocuments): { write: TableWrite; contributed: Row[] } {
  const keys = ['tenant_id', ...projection.key];
  const contributed: Row[] = [];
  const rows = items
    .map(({ key, facts }) => {
      const full = { tenant_id: tenantId, ...key };
      const found = stored.get(`${projection.table}:${keyOf(full, keys)}`);
      const before = found ? found.facts : null;
      const after = before === null ? facts : projection.merge(before, facts);
      if (projection.contribution) {
        contributed.push(...projection.contribution.rows(after));
        if (before !== null) contributed.push(...projection.contribution.rows(before).map((r) => negate(r, projection.contribution?.to)));
      }
      const row: Row = { ...full, ...projection.row(after), facts: after as Cell, revision: (found?.revision ?? 0) + 1 };
      return { row, sortKey: keyOf(full, keys) };
    })
    .sort(byKey)
    .map((r) => r.row);
  const columns = Object.keys(rows[0] ?? {});
  const updated = columns.filter((c) => !keys.includes(c));
  return {
    contributed,
    write: {
      table: projection.table,
      expected: rows.length,
      statement: sql`
        ${insertRows(projection.table, columns, rows)}
        on conflict (${list(keys)}) do update set ${sql.join(updated.map((c) => sql`${ident(c)} = excluded.${ident(c)}`), sql`, `)}
        where t.revision = excluded.revision - 1`,
    },
  };
}

/** Whole-row registers: a stored row gives way only to a higher precedence, so order never matters. */
function registerWrite(tenantId: string, projection: RegisterProjection, items: Row[]): TableWrite {
  const keys = ['tenant_id', ...projection.key];
  const rows = items.map((row) => ({ row: { tenant_id: tenantId, ...row }, sortKey: keyOf({ tenant_id: tenantId, ...row }, keys) })).sort(byKey).map((r) => r.row);
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const updated = columns.filter((c) => !keys.includes(c));
  return {
    table: projection.table,
    expected: null,
    statement: sql`
      ${insertRows(projection.table, columns, rows)}
      on conflict (${list(keys)}) do update set ${sql.join(updated.map((c) => sql`${ident(c)} = excluded.${ident(c)}`), sql`, `)}
      where excluded.precedence > t.precedence`,
  };
}

const MERGE_SQL: Record<CounterMerge, (column: SQLQuery) => SQLQuery> = {
  sum: (c) => sql`coalesce(t.${c} + excluded.${c}, t.${c}, excluded.${c})`,
  min: (c) => sql`least(t.${c}, excluded.${c})`,
  max: (c) => sql`greatest(t.${c}, excluded.${c})`,
  sketch: (c) => sql`earshot_sketch_merge(t.${c}, excluded.${c})`,
};

function counterWrite(tenantId: string, projection: CounterProjection, items: Row[]): TableWrite {
  const keys = ['tenant_id', ...projection.key];
  const rows = items.map((row) => ({ row: { tenant_id: tenantId, ...row }, sortKey: keyOf({ tenant_id: tenantId, ...row }, keys) })).sort(byKey).map((r) => r.row);
  const columns = [...keys, ...Object.keys(projection.merge)];
  return {
    table: projection.table,
    expected: null,
    statement: sql`
      ${insertRows(projection.table, columns, rows)}
      on conflict (${list(keys)}) do update set ${sql.join(
        Object.entries(projection.merge).map(([column, rule]) => sql`${ident(column)} = ${MERGE_SQL[rule](ident(column))}`),
        sql`, `,
      )}`,
  };
}

function addInto(into: Row, row: Row, merge: Readonly<Record<string, CounterMerge>>): void {
  for (const [column, rule] of Object.entries(merge)) {
    const x = into[column] ?? null;
    const y = row[column] ?? null;
    if (y === null) continue;
    if (x === null) {
      into[column] = rule === 'sketch' ? { ...(y as Sketch) } : y;
      continue;
    }
    if (rule === 'sum') into[column] = Number(x) + Number(y);
    else if (rule === 'min') into[column] = Math.min(Number(x), Number(y));
    else if (rule === 'max') into[column] = Math.max(Number(x), Number(y));
    else {
      const sketch = x as Sketch;
      for (const [bucket, count] of Object.entries(y as Sketch)) sketch[bucket] = (sketch[bucket] ?? 0) + count;
    }
  }
}

function addCount(counters: Map<CounterProjection, Map<string, Row>>, projection: CounterProjection, row: Row): void {
  const pending = counters.get(projection) ?? new Map<string, Row>();
  const slot = keyOf(row, projection.key);
  const mine = pending.get(slot);
  if (mine) {
    addInto(mine, row, projection.merge);
  } else {
    const fresh: Row = { ...row };
    for (const column of Object.keys(projection.merge)) fresh[column] = null;
    addInto(fresh, row, projection.merge);
    pending.set(slot, fresh);
  }
  counters.set(projection, pending);
}

/** Takes back what a row contributed before a change: only additive counters can be taken back. */
function negate(row: Row, projection: CounterProjection | undefined): Row {
  const out: Row = { ...row };
  for (const [column, rule] of Object.entries(projection?.merge ?? {})) {
    if (rule !== 'sum') throw new Error(`${projection?.table}.${column}: only sums can be contributed by a document`);
    out[column] = -Number(row[column] ?? 0);
  }
  return out;
}
