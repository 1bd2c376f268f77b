import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_TRAIL_MIGRATIONS } from '@earshot/audit-trail';
import { AUTH_MIGRATIONS, DataKeyCache, DataKeys } from '@earshot/auth';
import type { Config } from '@earshot/config';
import { IDEMPOTENCY_MIGRATIONS } from '@earshot/idempotency';
import { ConnectionCache, PROVIDER_CONNECTIONS_MIGRATIONS } from '@earshot/provider-connections';
import { RATE_LIMIT_MIGRATIONS } from '@earshot/rate-limit';
import { eventCount, receiveBody, receivedBody, type Module, type RouteRateLimit, type Runtime } from '@earshot/server';
import { DeliveryRecorder } from './delivery-recorder';
import { registerDeliveryHooks } from './delivery-hooks';
import { Intake } from '@earshot/intake';
import { INGEST_HEADERS, WEBHOOK_EVENT_HEADERS } from '@earshot/contracts';
import { registerIngestRoute } from './routes/ingest';
import { registerWebhookEventsRoute } from './routes/webhook-events';
import { registerOtlpRoutes, type OtlpPolicy } from './otlp/otlp-routes';
import { registerOtlpGrpcRoutes } from './otlp/otlp-grpc-routes';
import { itemCount } from './otlp/otlp-export';
import type { WebhookPolicy } from './route-policy';
import { registerProviderWebhookRoute } from './providers/provider-webhooks';

/** The tables the gateway needs: tenants and keys, provider connections, idempotency keys, rate-limit windows, the audit log (operator actions). */
export const GATEWAY_MIGRATIONS = [
  AUTH_MIGRATIONS,
  PROVIDER_CONNECTIONS_MIGRATIONS,
  IDEMPOTENCY_MIGRATIONS,
  RATE_LIMIT_MIGRATIONS,
  AUDIT_TRAIL_MIGRATIONS,
] as const;

export interface GatewayOptions {
  /** How long a request waits for the log before answering 503. */
  appendTimeoutMs?: number;
  /** How long a concurrent copy waits for the first request with its idempotency key. */
  duplicateWaitMs?: number;
}

const DEFAULTS: Required<GatewayOptions> = {
  appendTimeoutMs: 5_000,
  duplicateWaitMs: 10_000,
};

/** The ingest gateway: verifies, validates, encodes and appends; never writes read models. */
export function gatewayModule(runtime: Runtime, overrides: GatewayOptions = {}): Module {
  const options = { ...DEFAULTS, ...overrides };
  return {
    name: 'gateway',
    dependsOn: ['database', 'log', 'http', 'access', 'grpc'],
    start: async () => {
      const log = runtime.log();
      const access = runtime.access();
      const { idempotency, secrets } = access;
      const recorder = new DeliveryRecorder(log, { report: (line) => runtime.logger.warn(line) });
      const intake = new Intake({
        log,
        logger: runtime.logger,
        metrics: runtime.metrics,
        idempotency: idempotency('ingest'),
        appendTimeoutMs: options.appendTimeoutMs,
        duplicateWaitMs: options.duplicateWaitMs,
        sealing: runtime.config.EARSHOT_SEAL_EVENTS ? new DataKeyCache(new DataKeys(runtime.database(), secrets)) : undefined,
      });

      await runtime.http().register(async (gateway: FastifyInstance) => {
        registerDeliveryHooks(gateway, recorder, INGEST_HEADERS.provider);
        // The HTTP server closes after in-flight requests finish: only then are the audit records flushed.
        gateway.addHook('onClose', () => recorder.close(5_000));

        await gateway.register(async (webhooks: FastifyInstance) => {
          // Signatures cover the exact bytes: keep them, whatever the content type, and parse JSON ourselves.
          webhooks.removeAllContentTypeParsers();
          webhooks.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, receiveBody(body as Buffer)));
          registerIngestRoute(webhooks, intake, webhookPolicy(runtime.config, INGEST_HEADERS), runtime.now);
          registerWebhookEventsRoute(webhooks, intake, webhookPolicy(runtime.config, WEBHOOK_EVENT_HEADERS), runtime.now);
          registerProviderWebhookRoute(webhooks, {
            intake,
            access,
            connections: new ConnectionCache(runtime.database(), access.secrets),
            publicUrl: runtime.config.EARSHOT_PUBLIC_URL,
            limits: { requestsPerMinute: runtime.config.EARSHOT_INGEST_REQUESTS_PER_MIN, eventsPerMinute: runtime.config.EARSHOT_INGEST_EVENTS_PER_MIN },
          });
        });
        await gateway.register(async (otlp: FastifyInstance) => registerOtlpRoutes(otlp, intake, otlpPolicy(runtime.config), runtime.now));
      });
      // OTLP/gRPC on its own port, recorded like the HTTP routes' deliveries; the gRPC app closes before the HTTP one, whose close flushes them.
      await runtime.grpc().register(async (grpc: FastifyInstance) => {
        registerDeliveryHooks(grpc, recorder, INGEST_HEADERS.provider);
        registerOtlpGrpcRoutes(grpc, intake, otlpPolicy(runtime.config), runtime.now);
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
  ];
  return { auth: 'apiKey', scope: 'events:write', rateLimits, signature: { timestampHeader: headers.timestamp, signatureHeader: headers.signature } };
}

/** OTLP export requests share the tenant's ingest limits, counted in spans (data points for metrics). */
function otlpPolicy(config: Config): OtlpPolicy {
  const rateLimits: RouteRateLimit[] = [
    { name: 'ingest-requests', per: 'tenant', limit: config.EARSHOT_INGEST_REQUESTS_PER_MIN },
    { name: 'ingest-events', per: 'tenant', limit: config.EARSHOT_INGEST_EVENTS_PER_MIN, cost: itemCount },
  ];
  return { auth: 'apiKey', scope: 'traces:write', rateLimits };
}
