import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_TRAIL_MIGRATIONS } from '@earshot/audit-trail';
import { ApiKeyCache, AUTH_MIGRATIONS, loadMasterKey, SecretBox } from '@earshot/auth';
import type { Config } from '@earshot/config';
import { IDEMPOTENCY_MIGRATIONS, IdempotencyStore } from '@earshot/idempotency';
import { RATE_LIMIT_MIGRATIONS, RateLimiter } from '@earshot/rate-limit';
import { registerAuthHook, registerRateLimitHook, runEvery, type Module, type RouteRateLimit, type Runtime } from '@earshot/server';
import { DeliveryRecorder } from './delivery-recorder';
import { registerDeliveryHooks } from './delivery-hooks';
import { Intake } from './intake';
import { receiveBody } from './received-body';
import { eventCount } from './received-body';
import { registerSignatureHook } from './request-signature';
import { INGEST_IDEMPOTENCY } from './shared-intake';
import { receivedBody, type WebhookPolicy } from './route-policy';
import { INGEST_HEADERS, registerIngestRoute } from './routes/ingest';
import { registerTenantRoutes } from './routes/tenants';
import { registerWebhookEventsRoute, WEBHOOK_EVENT_HEADERS } from './routes/webhook-events';

/** The tables the gateway needs: tenants and keys, idempotency keys, rate-limit windows, the audit log (operator actions). */
export const GATEWAY_MIGRATIONS = [AUTH_MIGRATIONS, IDEMPOTENCY_MIGRATIONS, RATE_LIMIT_MIGRATIONS, AUDIT_TRAIL_MIGRATIONS] as const;

export interface GatewayOptions {
  /** How long a request waits for the log before answering 503. */
  appendTimeoutMs?: number;
  /** How long a concurrent copy waits for the first request with its idempotency key. */
  duplicateWaitMs?: number;
  /** How long an answer is replayed for its idempotency key: providers retry for up to 72 hours. */
  idempotencyRetentionMs?: number;
  idempotencySweepMs?: number;
  /** How long an idempotent answer waits to ride with the next claims rather than take a statement of its own. */
  answerLingerMs?: number;
  rateLimitSyncMs?: number;
  /** How long an authenticated key is kept before it is looked up again (a revocation or rotation anywhere empties the cache within 500 ms regardless). */
  keyCacheMs?: number;
}

const DEFAULTS: Required<GatewayOptions> = {
  appendTimeoutMs: 5_000,
  duplicateWaitMs: 10_000,
  idempotencyRetentionMs: INGEST_IDEMPOTENCY.retentionMs,
  idempotencySweepMs: 10 * 60_000,
  answerLingerMs: 20,
  rateLimitSyncMs: 200,
  keyCacheMs: 10_000,
};

/** The ingest gateway: verifies, validates, encodes and appends; never writes read models. */
export function gatewayModule(runtime: Runtime, overrides: GatewayOptions = {}): Module {
  const options = { ...DEFAULTS, ...overrides };
  return {
    name: 'gateway',
    dependsOn: ['database', 'log', 'http'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      const box = new SecretBox(loadMasterKey(runtime.config));
      const report = (what: string) => (error: unknown) => console.error(`[gateway] ${what}: ${error instanceof Error ? error.message : String(error)}`);
      const idempotency = new IdempotencyStore(db, {
        scope: INGEST_IDEMPOTENCY.scope,
        retentionMs: options.idempotencyRetentionMs,
        answerLingerMs: options.answerLingerMs,
        now: runtime.now,
      });
      const limiter = new RateLimiter(db, { now: runtime.now, syncIntervalMs: options.rateLimitSyncMs, onError: report('rate-limit sync failed') });
      const recorder = new DeliveryRecorder(log);
      const intake = new Intake({ log, idempotency, appendTimeoutMs: options.appendTimeoutMs, duplicateWaitMs: options.duplicateWaitMs });
      limiter.start();
      const sweeper = runEvery(options.idempotencySweepMs, () => idempotency.sweep(), report('idempotency sweep failed'));

      await runtime.http().register(async (gateway: FastifyInstance) => {
        gateway.decorateRequest('deliveryNotes', null);
        gateway.decorateRequest('failure', null);
        const keys = new ApiKeyCache(db, box, options.keyCacheMs);
        // In this order: who is calling, is the body theirs, may they.
        registerAuthHook(gateway, {
          keys,
          adminToken: runtime.config.EARSHOT_ADMIN_TOKEN,
          now: runtime.now,
          environments: runtime.config.EARSHOT_KEY_ENVIRONMENTS,
        });
        registerSignatureHook(gateway, keys);
        registerRateLimitHook(gateway, limiter);
        registerDeliveryHooks(gateway, recorder, INGEST_HEADERS.provider);
        // The HTTP server closes after in-flight requests finish: only then are counts and audit records flushed.
        gateway.addHook('onClose', async () => {
          await limiter.stop();
          await sweeper.stop();
          await idempotency.settled();
          await recorder.close(5_000);
        });

        registerTenantRoutes(gateway, db, box);
        await gateway.register(async (webhooks: FastifyInstance) => {
          // Signatures cover the exact bytes: keep them, whatever the content type, and parse JSON ourselves.
          webhooks.removeAllContentTypeParsers();
          webhooks.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, receiveBody(body as Buffer)));
          registerIngestRoute(webhooks, intake, webhookPolicy(runtime.config, INGEST_HEADERS), runtime.now);
          registerWebhookEventsRoute(webhooks, intake, webhookPolicy(runtime.config, WEBHOOK_EVENT_HEADERS), runtime.now);
        });
      });
      // Stopping happens in onClose above, when the HTTP module closes after this one.
      return { stop: async () => undefined };
    },
  };
}

function webhookPolicy(config: Config, headers: { timestamp: string; signature: string }): WebhookPolicy {
  const events = (request: FastifyRequest) => eventCount(receivedBody(request.body));
  const rateLimits: RouteRateLimit[] = [
    { name: 'ingest-requests', per: 'tenant', limit: config.EARSHOT_INGEST_REQUESTS_PER_MIN },
    { name: 'ingest-events', per: 'tenant', limit: config.EARSHOT_INGEST_EVENTS_PER_MIN, cost: events },
    { name: 'requests', per: 'key', limit: config.EARSHOT_KEY_REQUESTS_PER_MIN },
  ];
  return {
    access: { auth: 'apiKey', scope: 'events:write', rateLimits },
    signature: { timestampHeader: headers.timestamp, signatureHeader: headers.signature },
  };
}
