import { ApiError } from '@earshot/contracts';

/** A page request as the shared list query gives it. */
export interface PageQuery {
  cursor?: string;
  page?: number;
  limit: number;
}

/** Where a page starts: after a record (cursor), or at an offset (page numbers). */
export interface PageWindow {
  after?: { createdAt: string; id: string };
  offset?: number;
  limit: number;
}

export function windowOf(query: PageQuery): PageWindow {
  if (query.page !== undefined) return { offset: (query.page - 1) * query.limit, limit: query.limit + 1 };
  if (query.cursor === undefined) return { limit: query.limit + 1 };
  try {
    const after = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8')) as unknown;
    if (typeof after === 'object' && after !== null && 'createdAt' in after && 'id' in after && typeof after.createdAt === 'string' && typeof after.id === 'string' && !Number.isNaN(Date.parse(after.createdAt))) {
      return { after: { createdAt: after.createdAt, id: after.id }, limit: query.limit + 1 };
    }
  } catch {
    // Not base64url JSON: answered below like any other foreign cursor.
  }
  throw new ApiError('VALIDATION_ERROR', 'the query is invalid: query.cursor', { fields: [{ path: 'query.cursor', message: 'not a cursor this list gave' }] });
}

/** The shared list shape from one more row than the page holds: its presence says there is a next page. */
export function pageOf<T extends { createdAt: string; id: string }>(rows: readonly T[], query: PageQuery) {
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  const more = rows.length > query.limit && last !== undefined;
  const nextCursor = more ? Buffer.from(JSON.stringify({ createdAt: last.createdAt, id: last.id })).toString('base64url') : null;
  if (query.page !== undefined) return { ok: true as const, items, nextCursor, page: query.page, nextPage: more ? query.page + 1 : null };
  return { ok: true as const, items, nextCursor };
}
