import { sql, type SQLQuery } from '@earshot/db';
import type { Paging } from './paging';

/**
 * Newest-first keyset over a time column and an id, in the order of the
 * table's index: time descending, then the id ascending (the read models'
 * `(tenant_id, <time> desc, id)`) or descending (the audit stores'). Rows
 * inserted while a client pages land before its cursor or after it, never
 * twice and never skipped.
 */
export function newestFirst(
  time: string,
  id: string,
  paging: Paging,
  ids: 'ascending' | 'descending' = 'ascending',
): { where: SQLQuery; order: SQLQuery; window: SQLQuery } {
  const t = sql.ident(time);
  const i = sql.ident(id);
  const after = paging.after;
  const beyond = ids === 'ascending' ? sql`${i}::text > ${after?.id ?? ''}` : sql`${i}::text < ${after?.id ?? ''}`;
  const where = after ? sql`(${t} < ${after.v}::timestamptz or (${t} = ${after.v}::timestamptz and ${beyond}))` : sql`true`;
  return { where, order: sql`order by ${t} desc, ${i} ${ids === 'ascending' ? sql`asc` : sql`desc`}`, window: windowOf(paging) };
}

/** `limit + 1` rows (the extra one tells whether a next page exists), from the page's offset. */
export function windowOf(paging: Paging): SQLQuery {
  return paging.offset > 0 ? sql`limit ${paging.limit + 1} offset ${paging.offset}` : sql`limit ${paging.limit + 1}`;
}

export const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());
