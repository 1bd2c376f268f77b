import type { SQLQuery } from '@databases/pg';

/**
 * Statements a process runs over and over with the same text, their rows as
 * array parameters, can be named, so each connection has Postgres parse and
 * plan them once rather than on every run: the projector's upserts (20
 * shapes in `bench projector`; Postgres 26 → 22 µs an event) and the
 * gateway's idempotency claims and call data keys (Postgres 0.085 → 0.058 ms
 * a single-event request). Mark what runs often: each name costs memory on
 * every connection that runs it. A text is named on its REPEATS-th run, so a
 * rare shape never takes one of the LIMIT names a pool gives. Those bound
 * what a connection keeps: a projector upsert's parsed tree is ~0.3 MB of the
 * backend's memory (its generic plan, if Postgres keeps one, as much again).
 * Tenant reads prepare theirs on their own pool (tenant-reads.ts).
 */
export const PREPARED_STATEMENTS = { repeats: 3, limit: 32 } as const;

const marked = new WeakSet<SQLQuery>();

/** Marks a query as one to prepare once it repeats. */
export function prepared(query: SQLQuery): SQLQuery {
  marked.add(query);
  return query;
}

/**
 * A connection pool's hook, told each query as it is sent: a marked query's text gets its name here, on the very
 * object node-postgres is handed, which prepares a named statement on each connection the first time it runs there.
 * One per pool, as the statements it names live on that pool's connections.
 */
export function statementNamer(): (query: SQLQuery, formatted: { readonly text: string }) => void {
  /** Runs per text not yet named; cleared when it outgrows the names, so texts that never repeat do not pile up. */
  const runs = new Map<string, number>();
  const names = new Map<string, string>();
  return (query, formatted) => {
    if (!marked.has(query)) return;
    const { text } = formatted;
    let name = names.get(text);
    if (name === undefined) {
      const seen = (runs.get(text) ?? 0) + 1;
      if (seen < PREPARED_STATEMENTS.repeats || names.size >= PREPARED_STATEMENTS.limit) {
        if (runs.size >= PREPARED_STATEMENTS.limit * 10) runs.clear();
        runs.set(text, seen);
        return;
      }
      runs.delete(text);
      name = `earshot_${names.size + 1}`;
      names.set(text, name);
    }
    Object.assign(formatted, { name });
  };
}
