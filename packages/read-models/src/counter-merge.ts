import { sql, type SQLQuery } from '@earshot/db';
import type { CounterMerge, CounterProjection } from './projection';

const MERGE_SQL: Record<CounterMerge, (column: SQLQuery) => SQLQuery> = {
  sum: (c) => sql`coalesce(t.${c} + excluded.${c}, t.${c}, excluded.${c})`,
  min: (c) => sql`least(t.${c}, excluded.${c})`,
  max: (c) => sql`greatest(t.${c}, excluded.${c})`,
  sketch: (c) => sql`earshot_sketch_merge(t.${c}, excluded.${c})`,
};

/** The `set` of an upsert into a counter's table (aliased `t`) that adds the excluded row to the stored one by its merge rules. */
export function counterMergeSet(projection: CounterProjection): SQLQuery {
  return sql.join(
    Object.entries(projection.merge).map(([column, rule]) => sql`${sql.ident(column)} = ${MERGE_SQL[rule](sql.ident(column))}`),
    sql`, `,
  );
}
