import { decodeCursor, encodeCursor, type CursorKinds, type CursorPosition } from '@earshot/contracts';

/** Where a page starts: after a keyset position (a cursor), then `offset` rows on (page numbers). */
export interface Paging {
  limit: number;
  after: CursorPosition | null;
  page: number | undefined;
  offset: number;
  kinds: CursorKinds;
}

export interface PagingQuery {
  cursor?: string | undefined;
  limit: number;
  page?: number | undefined;
}

/**
 * One scheme for every list route: a keyset cursor, page numbers, or page
 * numbers counted from a cursor. The contract's pattern has already checked
 * the cursor, so every one that arrives here is a position.
 */
export function pagingOf(query: PagingQuery, kinds: CursorKinds): Paging {
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, kinds);
  const offset = query.page === undefined ? 0 : (query.page - 1) * query.limit;
  return { limit: query.limit, after, page: query.page, offset, kinds };
}

export interface Page<T> {
  ok: true;
  items: T[];
  nextCursor: string | null;
  page?: number;
  nextPage?: number | null;
}

/**
 * The page from `limit + 1` fetched rows: the extra row only says whether
 * another page exists, so the last page says `nextCursor: null` exactly.
 */
export function pageOf<R, T>(rows: readonly R[], paging: Paging, position: (row: R) => CursorPosition, item: (row: R) => T): Page<T> {
  const more = rows.length > paging.limit;
  const kept = more ? rows.slice(0, paging.limit) : rows;
  const last = kept[kept.length - 1];
  const nextCursor = more && last !== undefined ? encodeCursor(position(last), paging.kinds) : null;
  const items = kept.map(item);
  if (paging.page !== undefined) return { ok: true, items, nextCursor, page: paging.page, nextPage: more ? paging.page + 1 : null };
  return { ok: true, items, nextCursor };
}

/** The JSON text of a page whose items Postgres has already rendered as JSON. */
export function pageText(page: Page<string>): string {
  const { items, ...position } = page;
  return `{${JSON.stringify(position).slice(1, -1)},"items":[${items.join(',')}]}`;
}
