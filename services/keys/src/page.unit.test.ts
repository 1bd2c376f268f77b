import { describe, expect, it } from 'vitest';
import { ApiKeyListQuerySchema } from '@earshot/contracts';
import { pageOf, pagingOf, type PagingQuery } from '@earshot/server';
import { CREATED_CURSOR, storeWindow } from './page';

const row = (n: number) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, createdAt: `2026-03-02T10:00:0${n}.000Z` });
const paging = (query: PagingQuery) => pagingOf(query, CREATED_CURSOR);
const windowOf = (query: PagingQuery) => storeWindow(paging(query));
const page = (rows: ReturnType<typeof row>[], query: PagingQuery) =>
  pageOf(
    rows,
    paging(query),
    (r) => ({ v: r.createdAt, id: r.id }),
    (r) => r,
  );

describe('pages of keys and tenants', () => {
  it('asks for one row more than the page, and turns its presence into a cursor after the last row shown', () => {
    expect(windowOf({ limit: 2 })).toEqual({ limit: 3 });
    const first = page([row(3), row(2), row(1)], { limit: 2 });
    expect(first.items).toEqual([row(3), row(2)]);
    expect(first.nextCursor).not.toBeNull();
    expect(windowOf({ limit: 2, cursor: first.nextCursor ?? '' })).toEqual({ after: { createdAt: row(2).createdAt, id: row(2).id }, limit: 3 });
    expect(page([row(1)], { limit: 2 })).toEqual({ ok: true, items: [row(1)], nextCursor: null });
  });

  it('answers page numbers with an offset, the page and the next page', () => {
    expect(windowOf({ limit: 10, page: 3 })).toEqual({ offset: 20, limit: 11 });
    expect(page([row(1), row(2)], { limit: 1, page: 3 })).toMatchObject({ page: 3, nextPage: 4 });
    expect(page([row(1)], { limit: 1, page: 3 })).toMatchObject({ page: 3, nextPage: null });
  });

  it('counts page numbers from the cursor when both are given', () => {
    const cursor = page([row(3), row(2), row(1)], { limit: 2 }).nextCursor ?? '';
    expect(windowOf({ limit: 2, cursor, page: 2 })).toEqual({ after: { createdAt: row(2).createdAt, id: row(2).id }, offset: 2, limit: 3 });
  });

  it('leaves a cursor it did not give to the contract, whose pattern refuses it', () => {
    for (const cursor of ['nonsense', Buffer.from('{"id":1}').toString('base64url'), '0~x']) {
      expect(ApiKeyListQuerySchema.safeParse({ cursor }).success, cursor).toBe(false);
    }
  });
});
