export { lastLines } from './log-tail';
export { removeCluster } from './placement';
export { choosePort, freePort, portInUse } from './ports';
export { postgresUrl, startPostgres, stopPostgres, type PostgresPaths, type StartedPostgres } from './server';
