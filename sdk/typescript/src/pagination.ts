import type { Query, RequestOptions, Transport } from './http.js';

/** What every list route answers: a page of items and the cursor of the next, null on the last. */
interface PageBody<T> {
  items: T[];
  nextCursor: string | null;
}

/** One page of a list, with the way to the next. */
export class Page<T> {
  constructor(
    /** This page's items, in the server's order. */
    readonly items: T[],
    /** The cursor of the next page; null on the last page. */
    readonly nextCursor: string | null,
    private readonly fetchPage: (cursor: string) => Promise<Page<T>>,
  ) {}

  hasNextPage(): boolean {
    return this.nextCursor !== null;
  }

  /** The next page, or null after the last. */
  async nextPage(): Promise<Page<T> | null> {
    return this.nextCursor === null ? null : this.fetchPage(this.nextCursor);
  }
}

/**
 * A list: iterate it (`for await (const call of earshot.calls.list())`) for
 * every item, page after page, or take `firstPage()` and walk the pages
 * yourself. Nothing is requested until you do either, and iteration never
 * asks for a page it does not need.
 */
export class PagedList<T> implements AsyncIterable<T> {
  constructor(
    private readonly transport: Transport,
    private readonly path: string,
    private readonly query: Query,
    private readonly options: RequestOptions = {},
  ) {}

  /** The first page (starting at the filters' own `cursor`, if given). */
  firstPage(): Promise<Page<T>> {
    const cursor = this.query.cursor;
    return this.page(typeof cursor === 'string' ? cursor : undefined);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page: Page<T> | null = await this.firstPage();
    while (page) {
      yield* page.items;
      page = await page.nextPage();
    }
  }

  /** Every item of every page, collected: for lists known to be short. */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const item of this) all.push(item);
    return all;
  }

  private async page(cursor: string | undefined): Promise<Page<T>> {
    const body = await this.transport.request<PageBody<T>>({ method: 'GET', path: this.path, query: { ...this.query, cursor } }, this.options);
    return new Page(body.items, body.nextCursor ?? null, (next) => this.page(next));
  }
}
