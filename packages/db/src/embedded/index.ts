export { lastLines } from './log-tail';
export { removeCluster } from './placement';
export { choosePort, freePort, portInUse } from './ports';
export { processAlive } from './process-alive';
export { postgresUrl, startPostgres, stopPostgres, type PostgresPaths, type StartedPostgres } from './server';
