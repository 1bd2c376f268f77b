import type { Query, RequestOptions, Transport } from '../http.js';
import { PagedList } from '../pagination.js';

/** What every resource shares: the transport, and path segments made safe. */
export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected paged<T>(path: string, query: object | undefined, options?: RequestOptions): PagedList<T> {
    return new PagedList<T>(this.transport, path, { ...(query as Query | undefined) }, options);
  }

  protected read<T>(path: string, query?: object, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>({ method: 'GET', path, query: query as Query | undefined }, options);
  }

  protected send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown, options?: RequestOptions): Promise<T> {
    return this.transport.request<T>({ method, path, body }, options);
  }
}

/** A path segment from an id, escaped. */
export const segment = (id: string): string => encodeURIComponent(id);
