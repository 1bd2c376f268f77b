import { prepared, shapedQuery, sql, sqlState, switchTenant, type Shaped, type SQLQuery } from '@earshot/db';
import {
  counterMergeSet,
  READ_MODELS,
  type Cell,
  type CounterProjection,
  type DocumentProjection,
  type RegisterProjection,
  type Row,
} from '@earshot/read-models';
import { loadColumnTypes, rowSet, textArray, typedColumns } from './row-arrays';
import { addCount, copyCounters, slotOf, type CounterRows, type TenantFold } from './tenant-fold';

export type Tx = Parameters<typeof switchTenant>[0];

/** Another projector wrote the same row between our read and our write; the batch is retried. */
export class ConcurrentWrite extends Error {
  override readonly name = 'ConcurrentWrite';
}

/** What a claim meets when another transaction claimed one of its events first and committed. */
const UNIQUE_VIOLATION = '23505';

const ident = (name: string) => sql.ident(name);
const list = (names: readonly string[]) => sql.join(names.map(ident), sql`, `);

/** The values of a map of rows by key, in key order. */
function inKeyOrder<T>(pending: ReadonlyMap<string, T>): T[] {
  return [...pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
}

/** A table's key; a register of one row per tenant (billing_plans) has no columns besides tenant_id. */
const conflictTarget = (projection: { key: readonly string[] }) => list(['tenant_id', ...projection.key]);

/** Rows of a table's columns; documents' facts beside them. */
interface RowSet {
  columns: readonly string[];
  rows: readonly Row[];
  facts?: readonly string[];
}

/**
 * A table's multi-row upsert: the tenant goes in once, as a value, rather than in every row; documents' facts beside
 * their rows. What follows the insert depends only on the kind of write, the table and its columns, which the shape names.
 */
function upsert(kind: string, table: string, tenantId: string, set: RowSet, onConflict: () => SQLQuery): Shaped {
  const rows = rowSet(table, set.columns, set.rows, set.facts);
  return {
    shape: `${kind} ${rows.shape}`,
    values: [tenantId, ...rows.values],
    write: (next) => sql`
    insert into ${ident(table)} as t (tenant_id, ${list(set.columns)}${set.facts ? sql`, facts` : sql``})
    select ${next()}::uuid, ${typedColumns(table, set.columns)}${set.facts ? sql`, r.facts` : sql``} from ${rows.write(next)}
    ${onConflict()}`,
  };
}

/** One table's upsert; documents expect every row written (else a concurrent writer got there first). */
interface TableWrite {
  table: string;
  statement: Shaped;
  expected: number | null;
}

/** Folds a tenant's events again, without those whose keys it names: they were applied before. */
export type Refold = (fold: TenantFold, appliedBefore: ReadonlySet<string>) => TenantFold;

/**
 * Applies tenants' folded events inside the caller's transaction, which
 * already runs as the projector role: each tenant is set before its
 * statements, so row-level security checks every row written. Per tenant:
 * set it, claim its events and read its read-merge-write rows in one
 * statement, and upsert its tables in one (a data-modifying CTE per table).
 * The counters (a tenant's day, an agent's minute) are sharded by partition,
 * so concurrent batches seldom share their rows (batches of two topics' same
 * partition number do, and a partition's last batch on a consumer it is
 * moving from); they come last, just before the commit, to hold their locks
 * for a few round trips rather than the whole batch, and always in descending
 * tenant order, so two batches never wait on each other in a cycle. The folds
 * are left as they were, for a retry. Returns the events applied.
 */
export async function writeTenants(tx: Tx, folds: readonly TenantFold[], refold: Refold): Promise<number> {
  const ordered = [...folds].sort((a, b) => (a.tenantId < b.tenantId ? -1 : a.tenantId > b.tenantId ? 1 : 0));
  await loadColumnTypes(
    tx,
    READ_MODELS.map((projection) => projection.table),
  );
  let applied = 0;
  const counted: { tenantId: string; writes: TableWrite[] }[] = [];
  for (const [index, fold] of ordered.entries()) {
    await switchTenant(tx, fold.tenantId);
    // The last tenant has the highest id, so its counters come first in descending order anyway: they go in its own statement.
    const written = await writeTenant(tx, fold, refold, index === ordered.length - 1);
    applied += written.applied;
    if (written.counters.length > 0) counted.push({ tenantId: fold.tenantId, writes: written.counters });
  }
  for (const { tenantId, writes } of counted.reverse()) {
    await switchTenant(tx, tenantId);
    await writeAll(tx, writes);
  }
  return applied;
}

/** Writes every table, the counters only `withCounters` (else it returns their writes); the tenant is already set. */
async function writeTenant(tx: Tx, folded: TenantFold, refold: Refold, withCounters: boolean): Promise<{ applied: number; counters: TableWrite[] }> {
  if (folded.records.size === 0) return { applied: 0, counters: [] };
  const { appliedBefore, stored } = await claimAndRead(tx, folded);
  const fold = appliedBefore.size === 0 ? folded : refold(folded, appliedBefore);
  const { tenantId } = fold;

  const counters = new Map(fold.counters);
  const writes: TableWrite[] = [];
  for (const [projection, pending] of fold.documents) {
    const { write, contributed } = documentWrite(tenantId, projection, pending, stored);
    writes.push(write);
    const target = projection.contribution?.to;
    if (!target || contributed.length === 0) continue;
    const rows: CounterRows = copyCounters(fold.counters.get(target) ?? new Map<string, Row>(), target);
    for (const row of contributed) {
      if (target.sharded) row.shard = fold.shard;
      addCount(rows, target, row);
    }
    counters.set(target, rows);
  }
  for (const [projection, pending] of fold.registers) writes.push(registerWrite(tenantId, projection, pending));
  // By table, whatever order the batch's events came in: Postgres locks a tenant's counter rows table by table in the
  // order of the statement's CTEs, and two batches that listed the tables in different orders deadlocked (broken after 1 s).
  const counterWrites = [...counters]
    .sort(([a], [b]) => (a.table < b.table ? -1 : 1))
    .map(([projection, pending]) => counterWrite(tenantId, projection, pending));
  if (withCounters) writes.push(...counterWrites);
  await writeAll(tx, writes);
  return { applied: folded.records.size - appliedBefore.size, counters: withCounters ? [] : counterWrites };
}

/** The tables' upserts as one statement, a data-modifying CTE each, which counts the rows of those that expect a count. */
function writesOf(writes: readonly TableWrite[]): Shaped {
  const name = (i: number) => ident(`w${i}`);
  const counted = (w: TableWrite) => w.expected !== null;
  return {
    shape: writes.map((w) => `${w.statement.shape}${counted(w) ? ' counted' : ''}`).join('; '),
    values: writes.flatMap((w) => w.statement.values),
    write: (next) => {
      const checked = writes.flatMap((w, i) => (counted(w) ? [sql`(select count(*)::int from ${name(i)}) as ${name(i)}`] : []));
      return sql`
    with ${sql.join(
      writes.map((w, i) => sql`${name(i)} as (${w.statement.write(next)}${counted(w) ? sql` returning 1` : sql``})`),
      sql`, `,
    )}
    select ${checked.length === 0 ? sql`1` : sql.join(checked, sql`, `)}`;
    },
  };
}

async function writeAll(tx: Tx, writes: readonly TableWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const [counts] = (await tx.query(prepared(shapedQuery(writesOf(writes))))) as Record<string, number>[];
  writes.forEach((w, i) => {
    if (w.expected === null) return;
    const written = Number(counts?.[`w${i}`] ?? 0);
    if (written !== w.expected) throw new ConcurrentWrite(`${w.table}: ${w.expected - written} rows changed under us`);
  });
}

type StoredDocuments = Map<string, { facts: unknown; revision: number }>;

/** The stored facts and revision of a document table's rows with these keys, each row named by its table and key. */
function storedRows(tenantId: string, projection: DocumentProjection<unknown>, keys: readonly Row[]): Shaped {
  const set = rowSet(projection.table, projection.key, keys);
  return {
    shape: `stored ${set.shape}`,
    values: [projection.table, tenantId, ...set.values],
    write: (next) => {
      const columns = list(projection.key);
      return sql`
      select ${next()}::text as "table", jsonb_build_array(${columns}) as key, facts, revision from ${ident(projection.table)}
      where tenant_id = ${next()}::uuid and (${columns}) in (select ${typedColumns(projection.table, projection.key)} from ${set.write(next)})`;
    },
  };
}

/**
 * One statement: claims the events, answering the keys of those applied
 * before (rarely any: answering the claimed ones instead was a row back for
 * every event), and reads the stored facts of every read-merge-write row they
 * touch, keyed by table and key. Reading for a repeated event too costs a row
 * read at most, and saves a round trip for every batch.
 *
 * The claim looks the keys up and inserts the rest plainly: `on conflict do
 * nothing` with `returning` cost half as much again (2,500 keys: 15–17 ms
 * against 10–12). `keys` is not materialized, so that the lookup takes both
 * key columns to the index in every plan: materialized, a generic plan looked
 * the keys up in every row of the tenant's. A batch claiming the same key at
 * the same moment makes the insert fail rather than skip it; the batch is
 * then tried again, and finds it.
 */
async function claimAndRead(tx: Tx, fold: TenantFold): Promise<{ appliedBefore: Set<string>; stored: StoredDocuments }> {
  const { tenantId } = fold;
  const reads = [...fold.documents].map(([projection, pending]) =>
    storedRows(
      tenantId,
      projection,
      [...pending.values()].map((p) => p.key),
    ),
  );
  const claim: Shaped = {
    shape: `claim; ${reads.map((read) => read.shape).join('; ')}`,
    values: [textArray(fold.records.keys()), tenantId, ...reads.flatMap((read) => read.values)],
    write: (next) => sql`
    with keys as not materialized (select ${next()}::text[] as ks, ${next()}::uuid as tenant),
    before as (
      select a.idempotency_key as k from applied_events a, keys
       where a.tenant_id = keys.tenant and a.idempotency_key = any(keys.ks)),
    claimed as (
      insert into applied_events (tenant_id, idempotency_key)
      select keys.tenant, k from keys, unnest(keys.ks) as k
       where k not in (select k from before))
    select null::text as "table", to_jsonb(k) as key, null::text as facts, 0 as revision from before
    ${sql.join(
      reads.map((read) => sql` union all ${read.write(next)}`),
      sql``,
    )}`,
  };
  const rows = (await tx.query(prepared(shapedQuery(claim))).catch((error: unknown) => {
    throw sqlState(error) === UNIQUE_VIOLATION ? new ConcurrentWrite('applied_events: another batch claimed the same event') : error;
  })) as (({ table: null; key: string } | { table: string; key: Cell[] }) & {
    facts: string;
    revision: number;
  })[];
  const appliedBefore = new Set<string>();
  const stored: StoredDocuments = new Map();
  for (const r of rows) {
    if (r.table === null) {
      appliedBefore.add(r.key);
    } else {
      stored.set(`${r.table}:${slotOf(r.key)}`, { facts: JSON.parse(r.facts), revision: Number(r.revision) });
    }
  }
  return { appliedBefore, stored };
}

/** Merge in TypeScript (the only place the merge rules live); `revision` catches a concurrent writer. */
function documentWrite(
  tenantId: string,
  projection: DocumentProjection<unknown>,
  pending: ReadonlyMap<string, { key: Row; facts: unknown }>,
  stored: StoredDocuments,
): { write: TableWrite; contributed: Row[] } {
  const contributed: Row[] = [];
  const written = new Map<string, { row: Row; facts: string }>();
  for (const [slot, { key, facts }] of pending) {
    const found = stored.get(`${projection.table}:${slot}`);
    const before = found ? found.facts : null;
    const after = before === null ? facts : projection.merge(before, facts);
    if (projection.contribution) {
      contributed.push(...projection.contribution.rows(after));
      if (before !== null) contributed.push(...projection.contribution.rows(before).map((r) => negate(r, projection.contribution?.to)));
    }
    // Not `{ ...key, ...row, revision }`: on Node 20 a literal that opens with a spread and gains keys costs ~6 µs a row.
    // Facts are text (the projector's own state, which Postgres need not parse): see calls/migrations/0003_facts_text.sql.
    written.set(slot, { row: Object.assign({}, key, projection.row(after), { revision: (found?.revision ?? 0) + 1 }), facts: JSON.stringify(after) });
  }
  const ordered = inKeyOrder(written);
  const columns = Object.keys(ordered[0]?.row ?? {});
  const updated = [...columns.filter((c) => !projection.key.includes(c)), 'facts'];
  return {
    contributed,
    write: {
      table: projection.table,
      expected: ordered.length,
      statement: upsert(
        'document',
        projection.table,
        tenantId,
        { columns, rows: ordered.map((w) => w.row), facts: ordered.map((w) => w.facts) },
        () => sql`
        on conflict (${conflictTarget(projection)}) do update set ${sql.join(
          updated.map((c) => sql`${ident(c)} = excluded.${ident(c)}`),
          sql`, `,
        )}
        where t.revision = excluded.revision - 1`,
      ),
    },
  };
}

/** Whole-row registers: a stored row gives way only to a higher precedence, so order never matters. */
function registerWrite(tenantId: string, projection: RegisterProjection, pending: ReadonlyMap<string, Row>): TableWrite {
  const rows = inKeyOrder(pending);
  const columns = new Set<string>();
  for (const row of rows) for (const column in row) columns.add(column);
  const updated = [...columns].filter((c) => !projection.key.includes(c));
  return {
    table: projection.table,
    expected: null,
    statement: upsert(
      'register',
      projection.table,
      tenantId,
      { columns: [...columns], rows },
      () => sql`
      on conflict (${conflictTarget(projection)}) do update set ${sql.join(
        updated.map((c) => sql`${ident(c)} = excluded.${ident(c)}`),
        sql`, `,
      )}
      where excluded.precedence > t.precedence`,
    ),
  };
}

function counterWrite(tenantId: string, projection: CounterProjection, pending: ReadonlyMap<string, Row>): TableWrite {
  return {
    table: projection.table,
    expected: null,
    statement: upsert(
      'counter',
      projection.table,
      tenantId,
      { columns: [...projection.key, ...Object.keys(projection.merge)], rows: inKeyOrder(pending) },
      () => sql`
      on conflict (${conflictTarget(projection)}) do update set ${counterMergeSet(projection)}`,
    ),
  };
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
