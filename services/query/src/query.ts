import type { FastifyInstance } from 'fastify';
import { AUDIT_TRAIL_MIGRATIONS } from '@earshot/audit-trail';
import { AUTH_MIGRATIONS, DataKeys } from '@earshot/auth';
import type { MigrationSet } from '@earshot/db';
import { IDEMPOTENCY_MIGRATIONS } from '@earshot/idempotency';
import { RATE_LIMIT_MIGRATIONS } from '@earshot/rate-limit';
import { runAsSingleton, type Module, type Runtime, useZodContracts } from '@earshot/server';
import { registerGraphqlRoutes } from './graphql/graphql-routes';
import { foldAll } from '@earshot/read-models';
import { registerAgentRoutes } from './routes/agents';
import { registerAlertRuleRoutes } from './routes/alert-rules';
import { registerAlertRoutes } from './routes/alerts';
import { registerAuditRoutes } from './routes/audit';
import { registerBillingRoutes } from './routes/billing';
import { registerCallErasureRoute } from './routes/call-erasure';
import { registerCallRoutes } from './routes/calls';
import { registerDeploymentImpactRoutes } from './routes/deployment-impact';
import { registerDeploymentRoutes } from './routes/deployments';
import { registerIncidentChangeRoutes } from './routes/incident-changes';
import { registerIncidentRoutes } from './routes/incidents';
import { registerMetricCatalogueRoutes } from './routes/metric-catalogue';
import { registerMetricRoutes } from './routes/metrics';
import { registerOutcomeRoutes } from './routes/outcomes';
import { registerRealtimeRoutes } from './routes/realtime';
import { registerUsageRoutes } from './routes/usage';
import { LiveEvents } from './stream/live-events';
import { StreamKeys } from './stream/stream-keys';
import { registerStreamRoute } from './stream/stream-route';
import { TenantWrites } from './tenant-writes';

/** The tables the query service shares (it owns none): keys, idempotency keys, rate-limit windows, the audit log. */
export const QUERY_MIGRATIONS: readonly MigrationSet[] = [AUTH_MIGRATIONS, IDEMPOTENCY_MIGRATIONS, RATE_LIMIT_MIGRATIONS, AUDIT_TRAIL_MIGRATIONS];

export interface QueryOptions {
  /** How long a write waits for the log before answering 503. */
  appendTimeoutMs?: number;
  /** Live events held for a resuming stream client while it catches up. */
  streamMaxQueuedEvents?: number;
  /** How often closed hours of metric rollups are folded into hour and day folds (reads stay exact in between; only slower). */
  foldIntervalMs?: number;
}

const DEFAULTS: Required<QueryOptions> = {
  appendTimeoutMs: 5_000,
  streamMaxQueuedEvents: 10_000,
  foldIntervalMs: 5_000,
};

/**
 * The query service: every REST read of the read models and the tenant's
 * writes through the log under /api/v1, GraphQL, and the live event stream.
 */
export function queryModule(runtime: Runtime, overrides: QueryOptions = {}): Module {
  const options = { ...DEFAULTS, ...overrides };
  return {
    name: 'query',
    dependsOn: ['database', 'log', 'http', 'access'],
    start: async () => {
      const db = runtime.database();
      const reads = runtime.tenantReads();
      const dataKeys = new DataKeys(db, runtime.access().secrets);
      const report = (what: string) => (error: unknown) => runtime.logger.error({ err: error }, what);
      const writes = new TenantWrites({
        db,
        log: runtime.log(),
        idempotency: runtime.access().idempotency('api'),
        appendTimeoutMs: options.appendTimeoutMs,
        now: runtime.now,
        sealing: runtime.config.EARSHOT_SEAL_EVENTS ? dataKeys : undefined,
      });
      // Folding writes derived rows every process would write alike: one process folds, under a lease, the others stand by.
      const folder = runAsSingleton(
        {
          db,
          name: 'earshot:metric-folding',
          intervalMs: options.foldIntervalMs,
          ttlMs: runtime.config.EARSHOT_LEASE_TTL,
          onError: report('metric folding failed'),
        },
        () => foldAll(db, reads, runtime.now()),
      );

      await runtime.http().register(
        async (api: FastifyInstance) => {
          useZodContracts(api, runtime.config);
          api.addHook('onClose', () => folder.stop());

          registerRealtimeRoutes(api, reads, runtime.now);
          registerCallRoutes(api, reads, dataKeys);
          registerCallErasureRoute(api, { db, keys: dataKeys });
          registerOutcomeRoutes(api, reads, writes);
          registerIncidentRoutes(api, reads, writes);
          registerIncidentChangeRoutes(api, reads, writes);
          registerAlertRoutes(api, reads);
          registerAlertRuleRoutes(api, reads, writes);
          registerDeploymentRoutes(api, reads, writes, runtime.now);
          registerDeploymentImpactRoutes(api, reads);
          registerMetricRoutes(api, reads, runtime.now);
          registerMetricCatalogueRoutes(api);
          registerAgentRoutes(api, reads);
          registerUsageRoutes(api, reads, runtime.now);
          registerBillingRoutes(api, reads);
          registerAuditRoutes(api, reads);
        },
        { prefix: '/api/v1' },
      );
      const streamKeys = new StreamKeys(
        (tenantId, ids) => dataKeys.lookup(ids, tenantId),
        (calls) => dataKeys.erasedCalls(calls),
      );
      const live = new LiveEvents(runtime.log(), streamKeys, report('a streamed event did not decode'));
      const stream = {
        heartbeatMs: runtime.config.EARSHOT_STREAM_HEARTBEAT_MS,
        maxBufferedBytes: runtime.config.EARSHOT_STREAM_BUFFER_BYTES,
        maxQueuedEvents: options.streamMaxQueuedEvents,
      };
      await runtime.http().register(async (root: FastifyInstance) => {
        root.addHook('onClose', () => live.stop());
        await registerGraphqlRoutes(root, reads, runtime.now, dataKeys);
        await registerStreamRoute(root, runtime.log(), live, { auth: 'apiKey', scope: 'calls:read' }, stream);
      });
      // Stopping happens in onClose above, when the HTTP module closes after this one.
      return { stop: async () => undefined };
    },
  };
}
