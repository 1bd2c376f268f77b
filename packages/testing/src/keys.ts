import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTenant, SecretBox } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import { openDatabase, sql, type ConnectionPool } from '@earshot/db';
import type { AccessOptions, RunningModules } from '@earshot/server';
import type { Logger } from '@earshot/telemetry';
import { createTestDatabase } from './database';
import { ADMIN_TOKEN, TestClock, type TenantCredentials } from './gateway';
import { kafkaBrokers, uniqueNamespace } from './infra';

export interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** An API key or the operator token. */
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The address the request comes from (the socket's). */
  from?: string;
}

export interface TestKeys {
  app: FastifyInstance;
  clock: TestClock;
  /** The test's own database, as its owner. */
  db: ConnectionPool;
  databaseUrl: string;
  masterKey: Buffer;
  /** The `sql` tag, for setup statements. */
  sql: typeof sql;
  createTenant(name?: string): Promise<TenantCredentials>;
  /** A request to this process's app, or to another's. */
  call(request: Call, target?: FastifyInstance): Promise<LightMyRequestResponse>;
  /** Another process's keys service on the same database, with its own key cache (and its own settings). */
  another(env?: Record<string, string>): Promise<{ app: FastifyInstance; stop: () => Promise<void> }>;
  stop(): Promise<void>;
}

/** Usage and changes seen quickly, so tests of revocation and usage need not wait. */
const KEYS_TEST_OPTIONS: AccessOptions = { usageFlushMs: 50, changeCheckMs: 100 };

/**
 * The keys, query and gateway modules on a fresh database and log namespace, driven with app.inject() on a movable clock;
 * `logger` is the process's logger (a test reading what the app logs), LOG_LEVEL's on stdout by default.
 */
export async function startTestKeys(label: string, env: Record<string, string> = {}, logger?: Logger): Promise<TestKeys> {
  const database = await createTestDatabase(label);
  const clock = new TestClock(Date.now());
  const masterKey = randomBytes(32);
  const baseEnv = {
    DATABASE_URL: database.url,
    KAFKA_BROKERS: kafkaBrokers().join(','),
    EARSHOT_LOG_NAMESPACE: uniqueNamespace(label),
    EARSHOT_MASTER_KEY: masterKey.toString('base64'),
    EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
    EARSHOT_KEY_REQUESTS_PER_MIN: '100000',
    LOG_LEVEL: 'warn',
    ...env,
  };
  const [
    { gatewayModule, GATEWAY_MIGRATIONS },
    { keysModule, KEYS_MIGRATIONS },
    { PROJECTOR_MIGRATIONS },
    { queryModule, QUERY_MIGRATIONS },
    { createRuntime, resolveTargets, startModules },
  ] = await Promise.all([
    import('@earshot/gateway'),
    import('@earshot/keys'),
    import('@earshot/projector'),
    import('@earshot/query'),
    import('@earshot/server'),
  ]);
  // The projector's tables too, so the query service's routes answer (they show enforcement on another service).
  const migrations = [...GATEWAY_MIGRATIONS, ...PROJECTOR_MIGRATIONS, ...QUERY_MIGRATIONS, ...KEYS_MIGRATIONS];
  const { runtime, modules } = createRuntime({
    config: loadConfig(baseEnv),
    service: `test-${label}`,
    migrations,
    now: clock.now,
    access: KEYS_TEST_OPTIONS,
    ...(logger ? { logger } : {}),
  });
  const running = await startModules(
    resolveTargets(['keys', 'query', 'gateway'], [...modules, keysModule(runtime), queryModule(runtime), gatewayModule(runtime)]),
  );
  const app = runtime.http();
  await app.ready();
  const db = openDatabase({ url: database.url, poolSize: 4, applicationName: `test-${label}-setup` });
  const box = new SecretBox(masterKey);
  const others: RunningModules[] = [];

  const inject = (target: FastifyInstance, request: Call) =>
    target.inject({
      method: request.method,
      url: `/api/v1${request.path}`,
      ...(request.body === undefined ? {} : { payload: request.body as Record<string, unknown> }),
      headers: { ...(request.token ? { authorization: `Bearer ${request.token}` } : {}), ...request.headers },
      ...(request.from ? { remoteAddress: request.from } : {}),
    });

  return {
    app,
    clock,
    db,
    databaseUrl: database.url,
    masterKey,
    sql,
    createTenant: async (name = 'Acme Voice') => createTenant(db, box, { name }),
    call: (request, target = app) => inject(target, request),
    async another(extra = {}) {
      const other = createRuntime({
        config: loadConfig({ ...baseEnv, ...extra }),
        service: `test-${label}-other`,
        migrations: KEYS_MIGRATIONS,
        now: clock.now,
        access: KEYS_TEST_OPTIONS,
      });
      const started = await startModules(resolveTargets(['keys'], [...other.modules, keysModule(other.runtime)]));
      others.push(started);
      await other.runtime.http().ready();
      return { app: other.runtime.http(), stop: () => started.stop() };
    },
    async stop() {
      for (const other of others) await other.stop().catch(() => undefined);
      await running.stop().catch(() => undefined);
      await db.dispose().catch(() => undefined);
      await database.drop();
    },
  };
}
