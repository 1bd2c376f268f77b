import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { masterSecretBox } from '@earshot/auth';
import type { Config } from '@earshot/config';
import { resolve } from 'node:path';
import {
  databaseHealth,
  DATABASE_MIGRATIONS,
  migrate,
  openDatabase,
  startPostgres,
  stopPostgres,
  TenantReads,
  type ConnectionPool,
  type MigrationSet,
} from '@earshot/db';
import { createEmbeddedLog, createKafkaLog, EMBEDDED_LOG_MIGRATIONS, instrumentLog, TOPICS, type EventLog } from '@earshot/log';
import { createLogger, Metrics, startTracing, type Logger } from '@earshot/telemetry';
import { apiScope, openAccess, type Access, type AccessOptions, type ApiScopeOptions } from './access';
import { buildGrpcHttp } from './grpc-http';
import { lockDataDir } from './data-dir-lock';
import { HealthChecks } from './health';
import { buildHttp } from './http';
import { logRequests } from './request-log';
import { measureRequests } from './http-metrics';
import { traceRequests } from './http-tracing';
import { registerMetricsRoute } from './metrics-route';
import type { Module } from './modules';

/**
 * What the infrastructure modules provide to the services. Each accessor
 * throws until its module has started, so a service that forgot to declare a
 * dependency fails at boot, not on its first request.
 */
export interface Runtime {
  config: Config;
  database(): ConnectionPool;
  /** One-statement reads as a tenant in one round trip each (its connections open on first use). */
  tenantReads(): TenantReads;
  log(): EventLog;
  http(): FastifyInstance;
  /** The HTTP/2 cleartext app gRPC services register on, on its own port (the `grpc` module); access is enforced on it as on `http`. */
  grpc(): FastifyInstance;
  /** The key cache, secret box, rate limiter and idempotency stores, one each per process; the `access` module also enforces every route's policy. */
  access(): Access;
  health: HealthChecks;
  /** The process's one logger (LOG_LEVEL); services log through it or a child of it. */
  logger: Logger;
  /** The process's one metrics registry, scraped at `/metrics`. */
  metrics: Metrics;
  /** Injected so tests can move time (idempotency windows, signatures, rollups). */
  now: () => Date;
}

export type InfrastructureName = 'database' | 'log' | 'http' | 'access' | 'grpc';

export interface RuntimeOptions {
  config: Config;
  service: string;
  /** Every module's migrations, applied whatever the target, so any target can read any table. */
  migrations: readonly MigrationSet[];
  now?: () => Date;
  /** Runs on the HTTP app before any route is added (the API description must see every route, /health included). */
  onHttp?: (app: FastifyInstance) => Promise<void>;
  access?: AccessOptions;
  /** Made from the configuration when absent. */
  logger?: Logger;
}

export function createRuntime(options: RuntimeOptions): { runtime: Runtime; modules: Module[] } {
  const { config } = options;
  let database: ConnectionPool | undefined;
  let tenantReads: TenantReads | undefined;
  let log: EventLog | undefined;
  let http: FastifyInstance | undefined;
  let access: Access | undefined;
  let grpc: FastifyInstance | undefined;
  let scope: ApiScopeOptions | undefined;
  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not started: declare it in the module's dependsOn`);
    return value;
  };
  const health = new HealthChecks();
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL });
  const metrics = new Metrics();

  const runtime: Runtime = {
    config,
    database: () => need(database, 'database'),
    tenantReads: () => need(tenantReads, 'database'),
    log: () => need(log, 'log'),
    http: () => need(http, 'http'),
    grpc: () => need(grpc, 'grpc'),
    access: () => need(access, 'access'),
    health,
    logger,
    metrics,
    now: options.now ?? (() => new Date()),
  };

  const embeddedLog = config.KAFKA_BROKERS === undefined;
  let databaseUrl: string | undefined;
  let tracing = false;
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
          const url =
            config.DATABASE_URL ??
            (
              await startPostgres({ stateDir, port: config.EARSHOT_EMBEDDED_POSTGRES_PORT, portVariable: 'EARSHOT_EMBEDDED_POSTGRES_PORT' }, (line) =>
                logger.info(line),
              )
            ).url;
          pool = openDatabase({ url, poolSize: 20, applicationName: `earshot-${options.service}`, logger });
          await migrate(pool, [DATABASE_MIGRATIONS, ...(embeddedLog ? [EMBEDDED_LOG_MIGRATIONS] : []), ...options.migrations]);
          databaseUrl = url;
        } catch (error) {
          await pool?.dispose();
          lock?.release();
          throw error;
        }
        const opened = pool;
        const reads = new TenantReads({ url: databaseUrl, poolSize: 20, applicationName: `earshot-${options.service}-reads`, logger });
        database = opened;
        tenantReads = reads;
        health.add('database', () => databaseHealth(opened));
        return {
          stop: async () => {
            await reads.dispose();
            await opened.dispose();
            if (!config.DATABASE_URL) stopPostgres(stateDir);
            lock?.release();
          },
        };
      },
    },
    {
      name: 'tracing',
      dependsOn: [],
      // First up and last down, so every span of the process is exported, the stopping ones included.
      start: async () => {
        const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
        if (endpoint === undefined) return { stop: async () => undefined };
        tracing = true;
        return startTracing({ endpoint, serviceName: config.OTEL_SERVICE_NAME ?? options.service });
      },
    },
    {
      name: 'log',
      // The embedded log lives in the database; Kafka needs nothing else.
      dependsOn: embeddedLog ? ['tracing', 'database'] : ['tracing'],
      start: async () => {
        const retention = {
          [TOPICS.events]: config.EARSHOT_TOPIC_RETENTION_EVENTS,
          [TOPICS.deliveries]: config.EARSHOT_TOPIC_RETENTION_DELIVERIES,
          [TOPICS.deadLetters]: config.EARSHOT_TOPIC_RETENTION_DEAD_LETTERS,
        };
        const opened = embeddedLog
          ? await createEmbeddedLog({ db: runtime.database(), url: need(databaseUrl, 'database'), namespace: config.EARSHOT_LOG_NAMESPACE, logger, retention })
          : await createKafkaLog({
              brokers: config.KAFKA_BROKERS ?? [],
              clientId: `earshot-${options.service}`,
              namespace: config.EARSHOT_LOG_NAMESPACE,
              logger,
              minInsyncReplicas: config.EARSHOT_KAFKA_MIN_INSYNC_REPLICAS,
              retention,
            });
        log = instrumentLog(opened, metrics);
        health.add('log', async () => {
          const started = performance.now();
          return { connected: await opened.ping(), latencyMs: Math.round(performance.now() - started) };
        });
        return { stop: () => opened.close() };
      },
    },
    {
      name: 'http',
      dependsOn: ['tracing'],
      start: async () => {
        const app = buildHttp({
          trustedProxies: config.EARSHOT_TRUSTED_PROXIES,
          logger,
          limits: {
            headersTimeoutMs: config.EARSHOT_HTTP_HEADERS_TIMEOUT_MS,
            requestTimeoutMs: config.EARSHOT_HTTP_REQUEST_TIMEOUT_MS,
            keepAliveTimeoutMs: config.EARSHOT_HTTP_KEEP_ALIVE_TIMEOUT_MS,
            maxConnections: config.EARSHOT_HTTP_MAX_CONNECTIONS,
          },
        });
        if (tracing) traceRequests(app);
        logRequests(app);
        measureRequests(app, metrics);
        await options.onHttp?.(app);
        health.register(app, 'earshot');
        registerMetricsRoute(app, metrics, config.EARSHOT_METRICS_TOKEN);
        http = app;
        const drain = drainable(app);
        return { stop: drain };
      },
    },
    {
      name: 'access',
      dependsOn: ['database', 'http'],
      start: async () => {
        const report = (what: string) => (error: unknown) => logger.error({ err: error }, what);
        const secrets = masterSecretBox(config);
        const opened = openAccess({ db: runtime.database(), secrets, now: runtime.now, report, metrics }, options.access);
        const app = runtime.http();
        scope = {
          access: opened.access,
          adminToken: config.EARSHOT_ADMIN_TOKEN,
          environments: config.EARSHOT_KEY_ENVIRONMENTS,
          keyRequestsPerMinute: config.EARSHOT_KEY_REQUESTS_PER_MIN,
          now: runtime.now,
          metrics,
        };
        await app.register(apiScope, scope);
        // Requests in flight still count and authenticate until the server has drained: stop with it.
        app.addHook('onClose', () => opened.stop());
        access = opened.access;
        return { stop: async () => undefined };
      },
    },
    {
      name: 'grpc',
      // After access, whose plugin it registers with the same options: a gRPC route's policy is enforced as an HTTP route's is.
      dependsOn: ['tracing', 'access'],
      start: async () => {
        const app = buildGrpcHttp({
          trustedProxies: config.EARSHOT_TRUSTED_PROXIES,
          logger,
          idleTimeoutMs: config.EARSHOT_HTTP_KEEP_ALIVE_TIMEOUT_MS,
          maxConnections: config.EARSHOT_HTTP_MAX_CONNECTIONS,
        });
        if (tracing) traceRequests(app);
        logRequests(app);
        measureRequests(app, metrics);
        await app.register(apiScope, need(scope, 'access'));
        grpc = app;
        return { stop: () => app.close() };
      },
    },
  ];
  return { runtime, modules };
}

/** Requests still running this long after a drain began are cut off. */
const DRAIN_GRACE_MS = 10_000;

/**
 * The first step of a drain: stop accepting, let in-flight requests finish,
 * and end upgraded connections (live streams) at once, since they never
 * finish by themselves and would hold the server open.
 */
function drainable(app: FastifyInstance): () => Promise<void> {
  const upgraded = new Set<Socket>();
  const open = new Set<Socket>();
  const track = (set: Set<Socket>, socket: Socket) => {
    set.add(socket);
    socket.once('close', () => set.delete(socket));
  };
  app.server.on('connection', (socket: Socket) => track(open, socket));
  app.server.on('upgrade', (_request: unknown, socket: Socket) => track(upgraded, socket));
  return async () => {
    for (const socket of upgraded) socket.destroy();
    const grace = setTimeout(() => {
      for (const socket of open) socket.destroy();
    }, DRAIN_GRACE_MS);
    try {
      await app.close();
    } finally {
      clearTimeout(grace);
    }
  };
}
