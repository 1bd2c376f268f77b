import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeCluster, stopPostgres } from '@earshot/db';
import { createTestDatabase, kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { cleanEnv, startEarshot, type EarshotProcess } from './earshot-process';

export type Service = 'gateway' | 'keys' | 'query' | 'audit';

/** Earshot deployed one way or another, as the scenarios see it. */
export interface Topology {
  name: string;
  /** The origin that serves each service's routes. */
  url(service: Service): string;
  adminToken(): string;
  /** Whether the gateway still takes events while the projection is interrupted. */
  ingestsWhileInterrupted: boolean;
  /** Stops the projection the hard way the topology allows: SIGKILL of the projector process, or a stop of the one process. */
  interrupt(): Promise<void>;
  /** Starts what `interrupt` stopped, on the same data. */
  resume(): Promise<void>;
  /** Everything the processes printed, for a failing test's message. */
  output(): string;
  close(): Promise<void>;
}

/** `earshot serve` with nothing configured: embedded PostgreSQL (its own port and data directory) and the embedded log. */
export async function embeddedTopology(): Promise<Topology & { dataDir: string }> {
  // Left 0700 as mkdtemp makes it: the embedded PostgreSQL must cope with a private folder, as root too.
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-e2e-embedded-'));
  const env = cleanEnv({ EARSHOT_DATA_DIR: dataDir });
  const discard = () => {
    stopPostgres(dataDir);
    removeCluster(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  };
  let all: EarshotProcess | undefined = await startEarshot('all', env).catch((error: unknown) => {
    discard();
    throw error;
  });
  let log = '';
  const running = () => {
    if (!all) throw new Error('the embedded process is stopped');
    return all;
  };
  return {
    name: 'embedded all',
    dataDir,
    url: () => running().url,
    adminToken: () => readFileSync(join(dataDir, 'admin.token'), 'utf8').trim(),
    ingestsWhileInterrupted: false,
    interrupt: async () => {
      log += running().output();
      await running().stop('SIGTERM');
      all = undefined;
    },
    resume: async () => {
      all = await startEarshot('all', env);
    },
    output: () => log + (all?.output() ?? ''),
    close: async () => {
      await all?.stop('SIGTERM');
      // A failed drain must not leave the server behind.
      discard();
    },
  };
}

/** Kafka and PostgreSQL, one process per target, sharing a fresh database and topic namespace. */
export async function splitTopology(): Promise<Topology> {
  const database = await createTestDatabase('e2e-split');
  const dataDir = mkdtempSync(join(tmpdir(), 'earshot-e2e-split-'));
  const adminToken = `e2e-admin-${randomBytes(12).toString('hex')}`;
  const env = cleanEnv({
    DATABASE_URL: database.url,
    KAFKA_BROKERS: kafkaBrokers().join(','),
    EARSHOT_LOG_NAMESPACE: uniqueNamespace('e2e-split'),
    EARSHOT_ADMIN_TOKEN: adminToken,
    EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
    EARSHOT_DATA_DIR: dataDir,
  });
  // One at a time: the first applies the migrations, the rest find them done.
  const processes = new Map<string, EarshotProcess>();
  for (const target of ['gateway', 'keys', 'projector', 'query', 'audit']) processes.set(target, await startEarshot(target, env));
  let log = '';
  const get = (target: string) => {
    const found = processes.get(target);
    if (!found) throw new Error(`the ${target} process is stopped`);
    return found;
  };
  return {
    name: 'split targets on Kafka',
    url: (service) => get(service).url,
    adminToken: () => adminToken,
    ingestsWhileInterrupted: true,
    interrupt: async () => {
      log += get('projector').output();
      await get('projector').stop('SIGKILL');
      processes.delete('projector');
    },
    resume: async () => {
      processes.set('projector', await startEarshot('projector', env));
    },
    output: () => log + [...processes].map(([target, p]) => `--- ${target}\n${p.output()}`).join('\n'),
    close: async () => {
      await Promise.all([...processes.values()].map((p) => p.stop('SIGTERM')));
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
