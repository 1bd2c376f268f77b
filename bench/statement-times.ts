import { sql, type ConnectionPool } from '@earshot/db';
import type { Figure } from './run';

/** A statement's executions and their time in one database, as pg_stat_statements counts them so far. */
export interface StatementCount {
  query: string;
  calls: number;
  ms: number;
}

/** Counts by pg_stat_statements' query id. */
export type StatementReading = ReadonlyMap<string, StatementCount>;

/** One statement's part of a phase: what it writes and reads, its share of all statement time, and its time an event. */
export type StatementShare = {
  statement: string;
  share: number;
  us_per_event: number;
  calls: number;
};

/** How many statements a figure names: the rest are summed in the total only. */
const NAMED = 4;

const identifier = String.raw`"?([a-z_][a-z0-9_]*)\b"?`;
// `on conflict ... do update set` updates the insert's own table.
const written = new RegExp(String.raw`\b(?:insert\s+into|(?<!do\s+)update|delete\s+from)\s+${identifier}`, 'gi');
// A table read, not a function's rows (`from unnest(...)`) or a subquery's.
const read = new RegExp(String.raw`\b(?:from|join)\s+${identifier}(?!\s*\()`, 'gi');
const commonTable = new RegExp(String.raw`\b${identifier}\s+as\s+(?:not\s+materialized\s+|materialized\s+)?\(`, 'gi');

const names = (query: string, pattern: RegExp) => [...query.matchAll(pattern)].map((match) => (match[1] ?? '').toLowerCase());

/**
 * A statement named by the tables it writes and reads, in name order, which
 * says what it is better than its first words: the projector's statements are
 * long `with` chains whose first words are a CTE's, and its tables come in the
 * order of a batch's events. One without tables keeps its text.
 */
export function statementLabel(query: string): string {
  const ctes = new Set(names(query, commonTable));
  const writes = [...new Set(names(query, written))].filter((table) => !ctes.has(table)).sort();
  const reads = [...new Set(names(query, read))].filter((table) => !ctes.has(table) && !writes.includes(table)).sort();
  const parts = [...(writes.length > 0 ? [`writes ${writes.join(', ')}`] : []), ...(reads.length > 0 ? [`reads ${reads.join(', ')}`] : [])];
  return parts.length > 0 ? parts.join('; ') : query.replace(/\s+/g, ' ').trim().slice(0, 80);
}

/**
 * What each statement spent between two readings, the costliest first: its
 * share of all statement time and its time an event over `events`. Statements
 * with the same label (one upsert of several shapes) are counted as one.
 */
export function statementShares(before: StatementReading, after: StatementReading, events: number): { totalUsPerEvent: number; statements: StatementShare[] } {
  const byLabel = new Map<string, { calls: number; ms: number }>();
  let totalMs = 0;
  for (const [id, now] of after) {
    const then = before.get(id);
    const ms = now.ms - (then?.ms ?? 0);
    const calls = now.calls - (then?.calls ?? 0);
    // The bench's own readings are not the phase's work.
    if (calls === 0 || now.query.includes('pg_stat_statements')) continue;
    totalMs += ms;
    const label = statementLabel(now.query);
    const sum = byLabel.get(label) ?? { calls: 0, ms: 0 };
    byLabel.set(label, { calls: sum.calls + calls, ms: sum.ms + ms });
  }
  const perEvent = (ms: number) => Number(((ms * 1_000) / events).toFixed(1));
  const statements = [...byLabel]
    .sort(([, a], [, b]) => b.ms - a.ms)
    .slice(0, NAMED)
    .map(([statement, { calls, ms }]) => ({ statement, share: Number((totalMs === 0 ? 0 : ms / totalMs).toFixed(2)), us_per_event: perEvent(ms), calls }));
  return { totalUsPerEvent: perEvent(totalMs), statements };
}

/** A phase's statement figures, named after the prefix, and the report's line. */
export interface StatementFigures {
  figures: Record<string, Figure>;
  line: string;
}

/** Counts a phase's statements: `count()` starts, the function it answers ends the phase and gives its figures over `events`. */
export interface StatementTimes {
  count(): Promise<(events: number, prefix?: string) => Promise<StatementFigures>>;
}

const reading = async (admin: ConnectionPool, database: string): Promise<StatementReading> => {
  const rows = (await admin.query(sql`
    select s.queryid::text as id, s.query, s.calls::float8 as calls, s.total_exec_time as ms
    from pg_stat_statements s join pg_database d on d.oid = s.dbid
    where d.datname = ${database}`)) as { id: string; query: string; calls: number; ms: number }[];
  return new Map(rows.map(({ id, query, calls, ms }) => [id, { query, calls, ms }]));
};

function figuresOf(phase: ReturnType<typeof statementShares> | string, prefix: string): StatementFigures {
  if (typeof phase === 'string')
    return {
      figures: { [`${prefix}postgres_statement_us_per_event`]: 'n/a', [`${prefix}postgres_statements`]: 'n/a' },
      line: `Postgres statements: n/a (${phase})`,
    };
  const named = phase.statements.map((s) => `${Math.round(s.share * 100)}% ${s.statement} (${s.us_per_event} µs)`).join(', ');
  return {
    figures: { [`${prefix}postgres_statement_us_per_event`]: phase.totalUsPerEvent, [`${prefix}postgres_statements`]: phase.statements },
    line: `Postgres statement time ${phase.totalUsPerEvent} µs an event: ${named}`,
  };
}

/**
 * pg_stat_statements for one database of the bench's Postgres, through a
 * pool on any database of that server. The test servers load it (see
 * startPostgres); a server started before they did, or one from DATABASE_URL
 * without it, has none, and the figures are then 'n/a' with the reason. The
 * extension's view is made in the pool's database: it shows the whole
 * server's statements, of which only `database`'s are read.
 */
export async function statementTimes(admin: ConnectionPool, database: string): Promise<StatementTimes> {
  const unavailable = async (): Promise<string | undefined> => {
    const [row] = (await admin.query(sql`select current_setting('shared_preload_libraries') like '%pg_stat_statements%' as loaded`)) as { loaded: boolean }[];
    if (!row?.loaded)
      return 'this Postgres does not load pg_stat_statements: a test server started before they did stops with npm run infra:down, and a server of DATABASE_URL needs it in shared_preload_libraries';
    try {
      await admin.query(sql`create extension if not exists pg_stat_statements`);
      return undefined;
    } catch (error) {
      return `pg_stat_statements could not be created: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  const why = await unavailable();
  if (why !== undefined) return { count: () => Promise.resolve((_events, prefix = '') => Promise.resolve(figuresOf(why, prefix))) };
  return {
    count: async () => {
      const before = await reading(admin, database);
      return async (events, prefix = '') => figuresOf(statementShares(before, await reading(admin, database), events), prefix);
    },
  };
}
