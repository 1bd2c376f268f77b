import type { CursorKinds } from '@earshot/contracts';
import type { Paging } from '@earshot/server';

/** Keys and tenants page by creation time, then id: the one cursor scheme every list uses. */
export const CREATED_CURSOR: CursorKinds = { value: 'time', id: 'uuid' };

/** Where the key store reads a page from: after the cursor's record, then the page numbers' offset, one row more than the page. */
export function storeWindow(paging: Paging): { after?: { createdAt: string; id: string }; offset?: number; limit: number } {
  return {
    ...(paging.after ? { after: { createdAt: String(paging.after.v), id: paging.after.id } } : {}),
    ...(paging.offset > 0 ? { offset: paging.offset } : {}),
    limit: paging.limit + 1,
  };
}
