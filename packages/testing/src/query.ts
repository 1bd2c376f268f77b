import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createTenant, DataKeyCache, DataKeys, issueApiKey, SCOPES, SecretBox, type Scope } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import type { StoredEvent } from '@earshot/contracts';
import { openDatabase, sql, type ConnectionPool } from '@earshot/db';
import type { QueryOptions } from '@earshot/query';
import type { MigrationSet } from '@earshot/db';
import type { Module, Runtime } from '@earshot/server';
import { appendEvents } from './fixtures/append-events';
import { waitUntilCaughtUp } from './fixtures/caught-up';
import { createTestDatabase } from './database';
import { kafkaBrokers, uniqueNamespace } from './infra';
import { TestClock } from './gateway';

export interface QueryTenant {
  id: string;
  apiKey: string;
  webhookSecret: string;
}

export interface KeyOptions {
  scopes?: readonly Scope[];
  ipAllowlist?: readonly string[];
  expiresAt?: Date;
  revoked?: boolean;
  name?: string;
}

export interface TestQuery {
  app: FastifyInstance;
  runtime: Runtime;
  clock: TestClock;
  /** A pool of the test's own database, as its owner (for setup only). */
  db: ConnectionPool;
  databaseUrl: string;
  createTenant(name?: string): Promise<QueryTenant>;
  /** Another key of a tenant, with the given scopes (default: every scope), allowlist, expiry or revocation. */
  createKey(tenantId: string, options?: KeyOptions): Promise<string>;
  /**
   * Appends events as the gateway would and waits until the projector has applied them: in the clear, or `sealed` with
   * their calls' data keys, as ingest seals by default.
   */
  project(events: readonly StoredEvent[], how?: { sealed: boolean }): Promise<void>;
  /** The `sql` tag, for setup statements. */
  sql: typeof sql;
  /** Drops the test's database under the running service (a database outage). */
  dropDatabase(): Promise<void>;
  get(path: string, apiKey: string): Promise<LightMyRequestResponse>;
  post(path: string, apiKey: string, body: unknown, idempotencyKey?: string): Promise<LightMyRequestResponse>;
  stop(): Promise<void>;
}

/** The query and projector modules on a real broker and a fresh database, driven with app.inject(). */
export async function startTestQuery(
  label: string,
  setup: { env?: Record<string, string>; options?: QueryOptions; migrations?: readonly MigrationSet[]; modules?: (runtime: Runtime) => Module[] } = {},
): Promise<TestQuery> {
  const database = await createTestDatabase(label);
  const clock = new TestClock(Date.now());
  const masterKey = randomBytes(32);
  const config = loadConfig({
    DATABASE_URL: database.url,
    KAFKA_BROKERS: kafkaBrokers().join(','),
    EARSHOT_LOG_NAMESPACE: uniqueNamespace(label),
    LOG_LEVEL: 'warn',
    EARSHOT_MASTER_KEY: masterKey.toString('base64'),
    EARSHOT_KEY_REQUESTS_PER_MIN: '100000',
    ...setup.env,
  });
  const [{ PROJECTOR_MIGRATIONS, projectorModule }, { queryModule, QUERY_MIGRATIONS }, { createRuntime, resolveTargets, startModules }] = await Promise.all([
    import('@earshot/projector'),
    import('@earshot/query'),
    import('@earshot/server'),
  ]);
  const { runtime, modules } = createRuntime({
    config,
    service: `test-${label}`,
    migrations: [...PROJECTOR_MIGRATIONS, ...QUERY_MIGRATIONS, ...(setup.migrations ?? [])],
    now: clock.now,
  });
  const extra = setup.modules?.(runtime) ?? [];
  const running = await startModules(
    resolveTargets(['query', 'projector', ...extra.map((m) => m.name)], [...modules, queryModule(runtime, setup.options), projectorModule(runtime), ...extra]),
  );
  const app = runtime.http();
  await app.ready();
  const db = openDatabase({ url: database.url, poolSize: 4, applicationName: `test-${label}-setup` });
  const box = new SecretBox(masterKey);
  const log = runtime.log();

  return {
    app,
    runtime,
    clock,
    db,
    databaseUrl: database.url,
    async createTenant(name = 'Acme Voice') {
      const created = await createTenant(db, box, { name });
      return { id: created.tenant.id, apiKey: created.apiKey, webhookSecret: created.webhookSecret };
    },
    async createKey(tenantId, options = {}) {
      const key = issueApiKey('production');
      await db.query(sql`
        insert into api_keys (id, tenant_id, name, display_prefix, key_hash, scopes, environment, ip_allowlist, status, expires_at)
        values (${randomUUID()}, ${tenantId}, ${options.name ?? 'test key'}, ${key.displayPrefix}, ${key.hash}, ${[...(options.scopes ?? SCOPES)]},
                'production', ${[...(options.ipAllowlist ?? [])]}::cidr[], ${options.revoked ? 'revoked' : 'active'}, ${options.expiresAt ?? null})`);
      return key.key;
    },
    async project(events, how) {
      await appendEvents(log, events, how?.sealed ? new DataKeyCache(new DataKeys(db, box)) : undefined);
      await waitUntilCaughtUp(runtime.database(), log);
    },
    sql,
    async dropDatabase() {
      await db.dispose();
      await database.drop();
    },
    get: (path, apiKey) => app.inject({ method: 'GET', url: `/api/v1${path}`, headers: { authorization: `Bearer ${apiKey}` } }),
    post: (path, apiKey, body, idempotencyKey) =>
      app.inject({
        method: 'POST',
        url: `/api/v1${path}`,
        payload: body as Record<string, unknown>,
        headers: { authorization: `Bearer ${apiKey}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      }),
    async stop() {
      await running.stop().catch(() => undefined);
      await db.dispose().catch(() => undefined);
      await database.drop();
    },
  };
}
