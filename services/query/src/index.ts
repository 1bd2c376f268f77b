export { queryModule, QUERY_MIGRATIONS, type QueryOptions } from './query';
// The statements the query bench times bare, beside the routes that run them.
export { callDetailStatement, callPageStatement, callPaging } from './routes/calls';
export { liveStatement } from './routes/realtime';
