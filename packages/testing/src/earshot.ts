import { randomBytes } from 'node:crypto';
import { createApiKey, createTenant, SecretBox, type Scope } from '@earshot/auth';
import type { StoredEvent } from '@earshot/contracts';
import { loadConfig } from '@earshot/config';
import { openDatabase, type ConnectionPool } from '@earshot/db';
import type { Runtime } from '@earshot/server';
import { appendEvents } from './fixtures/append-events';
import { waitUntilCaughtUp } from './fixtures/caught-up';
import { createTestDatabase } from './database';
import { ADMIN_TOKEN } from './gateway';
import { kafkaBrokers, uniqueNamespace } from './infra';

export interface EarshotTenant {
  id: string;
  apiKey: string;
  webhookSecret: string;
}

export interface TestEarshot {
  /** http://127.0.0.1:<port> of the listening server. */
  origin: string;
  /** http://127.0.0.1:<port> of the OTLP/gRPC port (HTTP/2 cleartext). */
  grpcOrigin: string;
  runtime: Runtime;
  /** A pool of the test's own database, as its owner (for setup only). */
  db: ConnectionPool;
  createTenant(name?: string): Promise<EarshotTenant>;
  /** Another key of the tenant, holding only `scopes`. */
  createKey(tenantId: string, scopes: readonly Scope[]): Promise<string>;
  /** Appends events as the gateway would and waits until the projector has applied them. */
  project(events: readonly StoredEvent[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `earshot serve --target=all` as the CLI composes it, listening on a free
 * port, on a fresh database and on Kafka or the embedded log.
 */
export async function startEarshot(label: string, setup: { log?: 'kafka' | 'embedded'; env?: Record<string, string> } = {}): Promise<TestEarshot> {
  const database = await createTestDatabase(label);
  const masterKey = randomBytes(32);
  const config = loadConfig({
    DATABASE_URL: database.url,
    ...(setup.log === 'embedded' ? {} : { KAFKA_BROKERS: kafkaBrokers().join(',') }),
    EARSHOT_LOG_NAMESPACE: uniqueNamespace(label),
    LOG_LEVEL: 'warn',
    EARSHOT_MASTER_KEY: masterKey.toString('base64'),
    EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
    EARSHOT_KEY_REQUESTS_PER_MIN: '100000',
    EARSHOT_INGEST_REQUESTS_PER_MIN: '100000',
    EARSHOT_INGEST_EVENTS_PER_MIN: '1000000',
    PORT: '0',
    ...setup.env,
  });
  const [{ composeTargets }, { resolveTargets, startModules }] = await Promise.all([import('@earshot/cli'), import('@earshot/server')]);
  const { runtime, modules } = composeTargets(config);
  const running = await startModules(resolveTargets(['all'], modules));
  const address = await runtime.http().listen({ port: 0, host: '127.0.0.1' });
  const grpcOrigin = await runtime.grpc().listen({ port: 0, host: '127.0.0.1' });
  const db = openDatabase({ url: database.url, poolSize: 2, applicationName: `test-${label}-setup` });
  const box = new SecretBox(masterKey);
  return {
    origin: address,
    grpcOrigin,
    runtime,
    db,
    async createTenant(name = 'Acme Voice') {
      const created = await createTenant(db, box, { name });
      return { id: created.tenant.id, apiKey: created.apiKey, webhookSecret: created.webhookSecret };
    },
    async createKey(tenantId, scopes) {
      const input = {
        tenantId,
        name: 'scoped test key',
        scopes,
        environment: 'production' as const,
        workspace: 'default',
        ipAllowlist: [],
        expiresAt: null,
        createdBy: { kind: 'operator' as const },
      };
      return (await createApiKey(db, input, new Date())).secret;
    },
    async project(events) {
      await appendEvents(runtime.log(), events);
      await waitUntilCaughtUp(runtime.database(), runtime.log());
    },
    async stop() {
      await running.stop();
      await db.dispose();
      await database.drop();
    },
  };
}
