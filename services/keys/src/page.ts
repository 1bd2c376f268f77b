import { decodeCursor, encodeCursor, type CursorKinds } from '@earshot/contracts';

/** A page request as the shared list query gives it. */
export interface PageQuery {
  cursor?: string;
  page?: number;
  limit: number;
}

/** Where a page starts: after a record (cursor), then `offset` records on (page numbers, counted from the cursor). */
export interface PageWindow {
  after?: { createdAt: string; id: string };
  offset?: number;
  limit: number;
}

/** Keys and tenants list newest first by creation, then id. */
const CURSOR: CursorKinds = { value: 'time', id: 'uuid' };

/** The window of a query whose cursor the contract's pattern has already checked. */
export function windowOf(query: PageQuery): PageWindow {
  const position = query.cursor === undefined ? undefined : decodeCursor(query.cursor, CURSOR);
  return {
    ...(position ? { after: { createdAt: String(position.v), id: position.id } } : {}),
    ...(query.page === undefined ? {} : { offset: (query.page - 1) * query.limit }),
    limit: query.limit + 1,
  };
}

/** The shared list shape from one more row than the page holds: its presence says there is a next page. */
export function pageOf<T extends { createdAt: string; id: string }>(rows: readonly T[], query: PageQuery) {
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  const more = rows.length > query.limit && last !== undefined;
  const nextCursor = more ? encodeCursor({ v: last.createdAt, id: last.id }, CURSOR) : null;
  if (query.page !== undefined) return { ok: true as const, items, nextCursor, page: query.page, nextPage: more ? query.page + 1 : null };
  return { ok: true as const, items, nextCursor };
}
