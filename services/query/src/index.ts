export { callDetailStatement, callPageStatement } from './routes/calls';
export { seriesStatement, type SeriesRequest } from './routes/metrics';
export { liveStatement, LIVE_WINDOW_MS } from './routes/realtime';
export { METRIC_CATALOGUE, METRIC_NAMES } from './metrics/catalogue';
export { pagingOf } from './paging';
export { queryModule, QUERY_MIGRATIONS, type QueryOptions } from './query';
export { ROUTE_SCOPES } from './route-scopes';
