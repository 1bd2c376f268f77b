import type { FastifyInstance } from 'fastify';
import type { Config } from '@earshot/config';
import { resolve } from 'node:path';
import { databaseHealth, DATABASE_MIGRATIONS, migrate, openDatabase, startPostgres, stopPostgres, type ConnectionPool, type MigrationSet } from '@earshot/db';
import { createEmbeddedLog, createKafkaLog, EMBEDDED_LOG_MIGRATIONS, type EventLog } from '@earshot/log';
import { lockDataDir } from './data-dir-lock';
import { HealthChecks } from './health';
import { buildHttp } from './http';
import type { Module } from './modules';

/**
 * What the infrastructure modules provide to the services. Each accessor
 * throws until its module has started, so a service that forgot to declare a
 * dependency fails at boot, not on its first request.
 */
export interface Runtime {
  config: Config;
  database(): ConnectionPool;
  log(): EventLog;
  http(): FastifyInstance;
  health: HealthChecks;
  /** Injected so tests can move time (idempotency windows, signatures, rollups). */
  now(): Date;
}

export type InfrastructureName = 'database' | 'log' | 'http';

export interface RuntimeOptions {
  config: Config;
  service: string;
  /** Every module's migrations, applied whatever the target, so any target can read any table. */
  migrations: readonly MigrationSet[];
  now?: () => Date;
  /** Runs on the HTTP app before any route is added (the API description must see every route, /health included). */
  onHttp?: (app: FastifyInstance) => Promise<void>;
}

export function createRuntime(options: RuntimeOptions): { runtime: Runtime; modules: Module[] } {
  const { config } = options;
  let database: ConnectionPool | undefined;
  let log: EventLog | undefined;
  let http: FastifyInstance | undefined;
  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not started: declare it in the module's dependsOn`);
    return value;
  };
  const health = new HealthChecks();

  const runtime: Runtime = {
    config,
    database: () => need(database, 'database'),
    log: () => need(log, 'log'),
    http: () => need(http, 'http'),
    health,
    now: options.now ?? (() => new Date()),
  };

  const embeddedLog = config.KAFKA_BROKERS === undefined;
  let databaseUrl: string | undefined;
  const modules: Module[] = [
    {
      name: 'database',
      dependsOn: [],
      start: async () => {
        // Without DATABASE_URL the program runs its own PostgreSQL, with its data under EARSHOT_DATA_DIR.
        const stateDir = resolve(config.EARSHOT_DATA_DIR);
        const lock = config.DATABASE_URL ? undefined : lockDataDir(stateDir);
        let pool: ConnectionPool | undefined;
        try {
          const url = config.DATABASE_URL ?? (await startPostgres({ stateDir, port: config.EARSHOT_EMBEDDED_POSTGRES_PORT }, (line) => console.error(`[earshot] ${line}`))).url;
          pool = openDatabase({ url, poolSize: 20, applicationName: `earshot-${options.service}` });
          await migrate(pool, [DATABASE_MIGRATIONS, ...(embeddedLog ? [EMBEDDED_LOG_MIGRATIONS] : []), ...options.migrations]);
          databaseUrl = url;
        } catch (error) {
          await pool?.dispose();
          lock?.release();
          throw error;
        }
        const opened = pool;
        database = opened;
        health.add('database', () => databaseHealth(opened));
        return {
          stop: async () => {
            await opened.dispose();
            if (!config.DATABASE_URL) stopPostgres(stateDir);
            lock?.release();
          },
        };
      },
    },
    {
      name: 'log',
      // The embedded log lives in the database; Kafka needs nothing else.
      dependsOn: embeddedLog ? ['database'] : [],
      start: async () => {
        const opened = embeddedLog
          ? await createEmbeddedLog({ db: runtime.database(), url: need(databaseUrl, 'database'), namespace: config.EARSHOT_LOG_NAMESPACE })
          : await createKafkaLog({ brokers: config.KAFKA_BROKERS ?? [], clientId: `earshot-${options.service}`, namespace: config.EARSHOT_LOG_NAMESPACE });
        log = opened;
        health.add('log', async () => {
          const started = performance.now();
          return { connected: await opened.ping(), latencyMs: Math.round(performance.now() - started) };
        });
        return { stop: () => opened.close() };
      },
    },
    {
      name: 'http',
      dependsOn: [],
      start: async () => {
        const app = buildHttp({ trustedProxies: config.EARSHOT_TRUSTED_PROXIES });
        await options.onHttp?.(app);
        health.register(app, 'earshot');
        http = app;
        // Closing stops accepting and waits for in-flight requests: the first step of a drain.
        return { stop: () => app.close() };
      },
    },
  ];
  return { runtime, modules };
}
