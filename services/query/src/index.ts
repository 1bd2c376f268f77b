export { queryModule, QUERY_MIGRATIONS, type QueryOptions } from './query';
// Where a page of calls starts, as GET /calls reads its cursor: the query bench times the statement bare.
export { callPaging } from './routes/calls';
