import { z } from 'zod';
import { ApiError } from '@earshot/contracts';

/** Where a keyset page ends: the sort it was made with, the sort value and the id of its last row. */
const CursorSchema = z.object({ s: z.string(), v: z.union([z.string(), z.number(), z.null()]), id: z.string() });
export type CursorPosition = z.infer<typeof CursorSchema>;

export type Paging =
  | { mode: 'cursor'; limit: number; after: CursorPosition | null }
  | { mode: 'page'; limit: number; page: number; offset: number };

export interface PagingQuery {
  cursor?: string | undefined;
  limit: number;
  page?: number | undefined;
}

/** Opaque to clients: base64url of the position, so its contents can change without breaking them. */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeCursor(cursor: string, sort: string): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const position = CursorSchema.safeParse(parsed);
  if (!position.success) throw new ApiError('VALIDATION_ERROR', 'cursor is not one this API gave out: pass nextCursor unchanged', { fields: [{ path: 'cursor', message: 'invalid cursor' }] });
  if (position.data.s !== sort) throw new ApiError('VALIDATION_ERROR', `cursor was made for sort ${position.data.s}, not ${sort}: keep the sort while paging`, { fields: [{ path: 'cursor', message: 'sort changed' }] });
  return position.data;
}

/** One scheme for every list route: a keyset cursor, or page numbers; never both. */
export function pagingOf(query: PagingQuery, sort: string): Paging {
  if (query.cursor !== undefined && query.page !== undefined) {
    throw new ApiError('VALIDATION_ERROR', 'pass either cursor or page, not both', { fields: [{ path: 'page', message: 'cannot be combined with cursor' }] });
  }
  if (query.page !== undefined) return { mode: 'page', limit: query.limit, page: query.page, offset: (query.page - 1) * query.limit };
  return { mode: 'cursor', limit: query.limit, after: query.cursor === undefined ? null : decodeCursor(query.cursor, sort) };
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
export function pageOf<R, T>(rows: readonly R[], paging: Paging, sort: string, position: (row: R) => Omit<CursorPosition, 's'>, item: (row: R) => T): Page<T> {
  const more = rows.length > paging.limit;
  const kept = more ? rows.slice(0, paging.limit) : rows;
  const last = kept[kept.length - 1];
  const nextCursor = more && last !== undefined ? encodeCursor({ s: sort, ...position(last) }) : null;
  const items = kept.map(item);
  if (paging.mode === 'page') return { ok: true, items, nextCursor, page: paging.page, nextPage: more ? paging.page + 1 : null };
  return { ok: true, items, nextCursor };
}
