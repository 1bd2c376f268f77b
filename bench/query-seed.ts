import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { StoredEvent } from '@earshot/contracts';
import { encodeEvent } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { callIdOf } from '@earshot/events';
import { addCount as foldCount, deriveEvent, type CounterRows } from '@earshot/projector';
import { precedenceOf, projectEvent, type Cell, type CounterProjection, type Row } from '@earshot/read-models';

/**
 * The bulk path of bench/query. One tenant's events go through the
 * projector's own pure functions (projectEvent, deriveEvent, each
 * projection's merge and row) exactly as the store would fold them; every
 * other tenant sends the same calls, so its rows are that template's with
 * the tenant's id and its call ids (the projector's callIdOf) in place of the
 * template's. test/bench-query-seed.int.test.ts checks the rows equal what
 * the real projector writes from the same events.
 */
export function callEvents(tenant: string, index: number, startMs: number): StoredEvent[] {
  const providerCallId = `bench-${index}`;
  const agent = `agent_${index % 7}`;
  let n = 0;
  const at = (ms: number) => ({
    tenant,
    idempotency_key: `${providerCallId}:${n++}`,
    occurred_at: new Date(startMs + ms).toISOString(),
    received_at: new Date(startMs + ms + 100).toISOString(),
    call: { provider_call_id: providerCallId, agent_id: agent },
  });
  const total = (k: number) => 500 + ((index * 131 + k * 71) % 1_200);
  const ended =
    index % 10 === 0
      ? sampleEvent('call.failed', at(60_000))
      : sampleEvent('call.ended', { ...at(60_000), data: { duration_ms: 30_000 + (index % 90) * 1_000 } });
  return [
    sampleEvent('call.started', at(0)),
    sampleEvent('agent.response.generated', {
      ...at(10_000),
      data: { turn_id: 't1', latency: { asr_ms: 150 + (index % 50), llm_ms: 300 + (index % 200), tts_ms: 120 + (index % 60), total_ms: total(1) } },
    }),
    sampleEvent('agent.response.generated', {
      ...at(20_000),
      data: { turn_id: 't2', latency: { asr_ms: 140 + (index % 40), llm_ms: 320 + (index % 150), tts_ms: 110 + (index % 70), total_ms: total(2) } },
    }),
    ended,
  ];
}

/** A tenant's `count` calls, started evenly over the `spanMs` before `endMs`: the same times for every tenant. */
export function tenantEvents(tenant: string, count: number, endMs: number, spanMs: number): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (let i = 0; i < count; i++) events.push(...callEvents(tenant, i, endMs - spanMs + Math.floor((i / count) * spanMs)));
  return events;
}

type Tables = Map<string, Map<string, Row>>;

const keyOf = (row: Row, columns: readonly string[]) => JSON.stringify(columns.map((c) => row[c] ?? null));

/** Counters fold as the projector folds them (its own addCount), so the seed cannot drift from the store. */
function addCount(tables: Tables, projection: CounterProjection, row: Row): void {
  const rows: CounterRows = tables.get(projection.table) ?? new Map<string, Row>();
  foldCount(rows, projection, row);
  tables.set(projection.table, rows);
}

/** Every read-model row one tenant's events produce, by table. */
export function tenantRows(tenantId: string, events: readonly StoredEvent[]): Map<string, Row[]> {
  const documents = new Map<
    string,
    {
      key: Row;
      facts: unknown;
      merge: (a: unknown, b: unknown) => unknown;
      row: (f: unknown) => Row;
      table: string;
      contribution?: { to: CounterProjection; rows(f: unknown): Row[] };
    }
  >();
  const tables: Tables = new Map();
  for (const event of events) {
    // The stored-data meter adds up the size of each event's log record, as the projector reads it.
    for (const effect of deriveEvent(projectEvent(event, encodeEvent(event).length)).effects) {
      const { projection } = effect;
      if ('facts' in effect && projection.kind === 'document') {
        const slot = `${projection.table}|${keyOf(effect.key, projection.key)}`;
        const mine = documents.get(slot);
        if (mine) mine.facts = projection.merge(mine.facts, effect.facts);
        else
          documents.set(slot, {
            key: effect.key,
            facts: effect.facts,
            merge: (a, b) => projection.merge(a, b),
            row: (facts) => projection.row(facts),
            table: projection.table,
            contribution: projection.contribution,
          });
      } else if ('row' in effect && projection.kind === 'register') {
        const rows = tables.get(projection.table) ?? new Map<string, Row>();
        const slot = keyOf(effect.row, projection.key);
        const mine = rows.get(slot);
        if (!mine || precedenceOf(effect.row) > precedenceOf(mine)) rows.set(slot, { tenant_id: tenantId, ...effect.row });
        tables.set(projection.table, rows);
      } else if ('row' in effect && projection.kind === 'counter') {
        addCount(tables, projection, { tenant_id: tenantId, ...effect.row });
      }
    }
  }
  for (const document of documents.values()) {
    const rows = tables.get(document.table) ?? new Map<string, Row>();
    rows.set(JSON.stringify(document.key), {
      tenant_id: tenantId,
      ...document.key,
      ...document.row(document.facts),
      facts: document.facts as Cell,
      revision: 1,
    });
    tables.set(document.table, rows);
    if (document.contribution)
      for (const row of document.contribution.rows(document.facts)) addCount(tables, document.contribution.to, { tenant_id: tenantId, ...row });
  }
  return new Map([...tables].map(([table, rows]) => [table, [...rows.values()]]));
}

function csvCell(value: unknown, type: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  const text =
    type === 'ARRAY'
      ? `{${(value as unknown[]).map((v) => `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  return `"${text.replaceAll('"', '""')}"`;
}

/** One table of the template as CSV lines, ready to COPY with its ids swapped. */
interface TemplateTable {
  table: string;
  columns: string[];
  lines: string[];
}

/** The template tenant's rows as CSV, and its calls (their ids are what every other tenant swaps). */
export interface Template {
  tenantId: string;
  tables: TemplateTable[];
  calls: { id: string; provider: string; providerCallId: string }[];
}

export async function templateOf(client: pg.Client, tenantId: string, events: readonly StoredEvent[]): Promise<Template> {
  const tables: TemplateTable[] = [];
  const rows = tenantRows(tenantId, events);
  for (const [table, tableRows] of rows) {
    const types = new Map(
      (
        (await client.query('select column_name, data_type from information_schema.columns where table_name = $1 and table_schema = current_schema()', [table]))
          .rows as { column_name: string; data_type: string }[]
      ).map((r) => [r.column_name, r.data_type]),
    );
    const columns = [...new Set(tableRows.flatMap((r) => Object.keys(r)))].filter((c) => types.has(c));
    tables.push({ table, columns, lines: tableRows.map((row) => `${columns.map((c) => csvCell(row[c], types.get(c) ?? '')).join(',')}\n`) });
  }
  const calls = (rows.get('calls') ?? []).map((r) => ({ id: r.id as string, provider: r.provider as string, providerCallId: r.provider_call_id as string }));
  return { tenantId, tables, calls };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** COPYs the template's rows as `tenantId`'s: the template's tenant and call ids replaced by the tenant's own. */
export async function copyTenant(client: pg.Client, template: Template, tenantId: string): Promise<string[]> {
  const ids = new Map<string, string>([[template.tenantId, tenantId]]);
  for (const call of template.calls) ids.set(call.id, callIdOf(tenantId, call.provider, call.providerCallId));
  const swap = (line: string) => line.replace(UUID, (id) => ids.get(id) ?? id);
  for (const { table, columns, lines } of template.tables) {
    const copy = client.query(copyFrom(`copy ${table} (${columns.map((c) => `"${c}"`).join(', ')}) from stdin (format csv)`));
    await pipeline(Readable.from(lines.map(swap)), copy);
  }
  return template.calls.map((call) => ids.get(call.id) ?? call.id);
}

/**
 * Drops the indexes and key constraints of `tables` and returns the
 * statements that build them again: loading bare tables and indexing once is
 * several times faster than keeping every index up to date row by row (the
 * keys are checked when rebuilt, so a duplicate still fails the seed).
 */
export async function dropIndexes(client: pg.Client, tables: readonly string[]): Promise<string[]> {
  const constraints = await client.query<{ table: string; name: string; definition: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = any(select (current_schema() || '.' || t)::regclass from unnest($1::text[]) t) and contype in ('p', 'u')`,
    [tables],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `select indexname as name, indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = any($1) and indexname not in (select conname from pg_constraint)`,
    [tables],
  );
  for (const { name } of indexes.rows) await client.query(`drop index "${name}"`);
  for (const { table, name } of constraints.rows) await client.query(`alter table ${table} drop constraint "${name}"`);
  return [...constraints.rows.map((c) => `alter table ${c.table} add constraint "${c.name}" ${c.definition}`), ...indexes.rows.map((i) => i.definition)];
}

/**
 * Gives `tenantId` the metric folds the folder made of the template tenant's
 * rollups (folds hold no call ids), and drops the changes its COPY noted for
 * the hours those folds cover: the state the folder would reach, without
 * folding every tenant again.
 */
export async function copyFolds(client: pg.Client, templateTenantId: string, tenantId: string, open: Date): Promise<void> {
  await client.query(
    `insert into metric_rollup_folds (tenant_id, span, start, metric, all_agents, agent_id, count, sum, min, max, sketch, p50, p95, p99)
     select $2, span, start, metric, all_agents, agent_id, count, sum, min, max, sketch, p50, p95, p99 from metric_rollup_folds where tenant_id = $1`,
    [templateTenantId, tenantId],
  );
  await client.query(
    'insert into metric_rollup_folded (tenant_id, span, start, until) select $2, span, start, until from metric_rollup_folded where tenant_id = $1',
    [templateTenantId, tenantId],
  );
  await client.query('delete from metric_rollup_changes where tenant_id = $1 and hour < $2', [tenantId, open]);
}
