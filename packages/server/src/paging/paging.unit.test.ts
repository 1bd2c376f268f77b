import { describe, expect, it } from 'vitest';
import { encodeCursor, type CursorKinds } from '@earshot/contracts';
import { pageOf, pageText, pagingOf } from './paging';

const kinds: CursorKinds = { value: 'time', id: 'text' };
const cursor = encodeCursor({ v: '2026-02-01T08:00:00.000Z', id: 'inc_7' }, kinds);

describe('paging a list', () => {
  it('counts page numbers from the cursor when both are given (once a 400 the document could not express)', () => {
    expect(pagingOf({ cursor, page: 3, limit: 10 }, kinds)).toMatchObject({ after: { v: '2026-02-01T08:00:00.000Z', id: 'inc_7' }, page: 3, offset: 20 });
  });

  it('starts at the top without a cursor, and at the first row after it with one', () => {
    expect(pagingOf({ limit: 10 }, kinds)).toMatchObject({ after: null, offset: 0, page: undefined });
    expect(pagingOf({ cursor, limit: 10 }, kinds)).toMatchObject({ after: { id: 'inc_7' }, offset: 0 });
  });

  it('gives the next cursor from the last row kept, and page numbers when paged by number', () => {
    const rows = [
      { at: '2026-02-01T09:00:00.000Z', id: 'a' },
      { at: '2026-02-01T08:30:00.000Z', id: 'b' },
      { at: '2026-02-01T08:10:00.000Z', id: 'c' },
    ];
    const page = pageOf(
      rows,
      pagingOf({ cursor, page: 1, limit: 2 }, kinds),
      (r) => ({ v: r.at, id: r.id }),
      (r) => r.id,
    );
    expect(page).toEqual({ ok: true, items: ['a', 'b'], nextCursor: encodeCursor({ v: '2026-02-01T08:30:00.000Z', id: 'b' }, kinds), page: 1, nextPage: 2 });
  });

  it('writes a page of rendered items as the JSON of the same page of values', () => {
    const items = ['{"id":"a","n":1}', '{"id":"b","n":null}'];
    const page = { ok: true as const, items, nextCursor: cursor, page: 2, nextPage: null };
    expect(JSON.parse(pageText(page))).toEqual({ ...page, items: items.map((item) => JSON.parse(item)) });
    expect(JSON.parse(pageText({ ok: true, items: [], nextCursor: null }))).toEqual({ ok: true, items: [], nextCursor: null });
  });
});
