import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DataKeys, signBody } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import type { DeadLetter } from '@earshot/contracts';
import { openDeadLetterBody } from '@earshot/events';
import type { GatewayOptions } from '@earshot/gateway';
import { createKafkaLog, type EventLog, type LogRecord, type TopicName } from '@earshot/log';
import { deadLettersTopic, deliveriesTopic } from '@earshot/topics';
import { createTestDatabase } from './database';
import { kafkaBrokers, uniqueNamespace } from './infra';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TenantCredentials {
  tenant: { id: string; name: string };
  apiKey: string;
  webhookSecret: string;
}

/** A movable clock for the gateway: signatures, windows and idempotency retention all read it. */
export class TestClock {
  constructor(private at = Date.parse('2026-03-02T10:00:05Z')) {}
  now = (): Date => new Date(this.at);
  advance(ms: number): void {
    this.at += ms;
  }
  seconds(): number {
    return Math.floor(this.at / 1000);
  }
}

export interface TestGateway {
  app: FastifyInstance;
  /** http://127.0.0.1:<port> of the gateway's OTLP/gRPC port (HTTP/2 cleartext), listening. */
  grpcOrigin: string;
  clock: TestClock;
  databaseUrl: string;
  namespace: string;
  /** A separate reader of the gateway's topics. */
  reader: EventLog;
  createTenant(name?: string): Promise<TenantCredentials>;
  /** Every record on a topic so far. */
  records(topic: TopicName): Promise<LogRecord[]>;
  /** How many records a topic holds. */
  count(topic: TopicName): Promise<number>;
  /** The data keys that open what the gateway sealed: events' fields, dead letters' bodies. */
  dataKeys: DataKeys;
  stop(): Promise<void>;
}

/** A gateway module on a real broker and a fresh database, driven with app.inject(). */
export async function startTestGateway(
  label: string,
  setup: { env?: Record<string, string>; options?: GatewayOptions; brokers?: string[]; clock?: TestClock } = {},
): Promise<TestGateway> {
  const brokers = setup.brokers ?? kafkaBrokers();
  const database = await createTestDatabase(label);
  const namespace = uniqueNamespace(label);
  const clock = setup.clock ?? new TestClock();
  const config = loadConfig({
    DATABASE_URL: database.url,
    KAFKA_BROKERS: brokers.join(','),
    EARSHOT_LOG_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    EARSHOT_ADMIN_TOKEN: ADMIN_TOKEN,
    EARSHOT_MASTER_KEY: randomBytes(32).toString('base64'),
    ...setup.env,
  });
  const [{ gatewayModule, GATEWAY_MIGRATIONS }, { keysModule }, { createRuntime, resolveTargets, startModules }] = await Promise.all([
    import('@earshot/gateway'),
    import('@earshot/keys'),
    import('@earshot/server'),
  ]);
  const { runtime, modules } = createRuntime({ config, service: `test-${label}`, migrations: [...GATEWAY_MIGRATIONS], now: clock.now });
  // The keys service too: tenants are created through its operator route.
  const running = await startModules(resolveTargets(['gateway', 'keys'], [...modules, gatewayModule(runtime, setup.options), keysModule(runtime)]));
  const app = runtime.http();
  await app.ready();
  const grpcOrigin = await runtime.grpc().listen({ port: 0, host: '127.0.0.1' });
  const reader = await createKafkaLog({ brokers, clientId: `test-${label}-reader`, namespace });

  return {
    app,
    grpcOrigin,
    clock,
    databaseUrl: database.url,
    namespace,
    reader,
    async createTenant(name = 'Acme Voice') {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/admin/tenants',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name },
      });
      if (response.statusCode !== 201) throw new Error(`creating a tenant answered ${response.statusCode}: ${response.body}`);
      return response.json<TenantCredentials>();
    },
    records: (topic) => readTopic(reader, topic),
    count: async (topic) => (await reader.ends(topic)).reduce((sum, p) => sum + Number(p.end), 0),
    dataKeys: new DataKeys(runtime.database(), runtime.access().secrets),
    async stop() {
      await running.stop();
      await reader.close();
      await database.drop();
    },
  };
}

export async function readTopic(reader: EventLog, topic: TopicName): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  await reader.replay({ topics: [topic], from: 'earliest', onBatch: async (batch) => void records.push(...batch) });
  return records;
}

/** Every dead letter so far, sealed bodies opened as the operator's routes open them (an erased one stays sealed). */
export async function deadLetters(gateway: TestGateway): Promise<DeadLetter[]> {
  const letters = (await gateway.records(deadLettersTopic.name)).map((r) => deadLettersTopic.read(r));
  const keys = await gateway.dataKeys.lookup(letters.flatMap((d) => d.sealed_with ?? []));
  return letters.map((d) => {
    const body = openDeadLetterBody(d, keys);
    return body === undefined ? d : { ...d, body: new Uint8Array(body) };
  });
}
export const deliveries = async (gateway: TestGateway) => (await gateway.records(deliveriesTopic.name)).map((r) => deliveriesTopic.read(r));

export interface SignedRequestOptions {
  body: string | Buffer;
  credentials: Pick<TenantCredentials, 'apiKey' | 'webhookSecret'>;
  timestamp: number;
  provider?: string;
  /** Sign these bytes instead of the body (to send a body the signature does not cover). */
  signed?: string | Buffer;
}

/** Headers of a signed ingest request, exactly as a provider sends them. */
export function ingestHeaders({ body, credentials, timestamp, provider = 'vapi', signed }: SignedRequestOptions): Record<string, string> {
  const ts = String(timestamp);
  return {
    authorization: `Bearer ${credentials.apiKey}`,
    'content-type': 'application/json',
    'x-earshot-timestamp': ts,
    'x-earshot-signature': signBody(credentials.webhookSecret, ts, Buffer.from(signed ?? body)),
    'x-earshot-provider': provider,
  };
}

/** A valid call.started envelope. */
export function envelope(idempotencyKey: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'call.started',
    version: '2026-01-01',
    idempotency_key: idempotencyKey,
    occurred_at: '2026-03-02T09:59:58.120Z',
    call: { provider_call_id: 'call_7d2b9c', agent_id: 'support-agent', direction: 'inbound' },
    data: { call_type: 'phone', language: 'en-US' },
    ...overrides,
  };
}
