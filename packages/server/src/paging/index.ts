export { iso, newestFirst, windowOf } from './keyset';
export { pageOf, pageText, pagingOf, type Page, type Paging, type PagingQuery } from './paging';
