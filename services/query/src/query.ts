import type { FastifyInstance } from 'fastify';
import { AUDIT_TRAIL_MIGRATIONS } from '@earshot/audit-trail';
import { ApiKeyCache, AUTH_MIGRATIONS, loadMasterKey, SecretBox } from '@earshot/auth';
import type { MigrationSet } from '@earshot/db';
import { IDEMPOTENCY_MIGRATIONS, IdempotencyStore } from '@earshot/idempotency';
import { RATE_LIMIT_MIGRATIONS, RateLimiter } from '@earshot/rate-limit';
import { registerAuthHook, registerRateLimitHook, runEvery, type Module, type Runtime, useZodContracts } from '@earshot/server';
import { foldAll } from './metrics/folder';
import { registerAgentRoutes } from './routes/agents';
import { registerAlertRuleRoutes } from './routes/alert-rules';
import { registerAlertRoutes } from './routes/alerts';
import { registerAuditRoutes } from './routes/audit';
import { registerBillingRoutes } from './routes/billing';
import { registerCallRoutes } from './routes/calls';
import { registerDeploymentImpactRoutes } from './routes/deployment-impact';
import { registerDeploymentRoutes } from './routes/deployments';
import { registerHealthRoutes } from './routes/health';
import { registerIncidentChangeRoutes } from './routes/incident-changes';
import { registerIncidentRoutes } from './routes/incidents';
import { registerMetricCatalogueRoutes } from './routes/metric-catalogue';
import { registerMetricRoutes } from './routes/metrics';
import { registerOutcomeRoutes } from './routes/outcomes';
import { registerRealtimeRoutes } from './routes/realtime';
import { registerUsageRoutes } from './routes/usage';
import { TenantWrites } from './tenant-writes';

/** The query service's own migrations (none of its tables remain), besides the tables it shares: keys, idempotency keys, rate-limit windows, the audit log. */
export const QUERY_MIGRATIONS: readonly MigrationSet[] = [
  AUTH_MIGRATIONS,
  IDEMPOTENCY_MIGRATIONS,
  RATE_LIMIT_MIGRATIONS,
  AUDIT_TRAIL_MIGRATIONS,
  { module: 'query', directory: new URL('../migrations/', import.meta.url) },
];

export interface QueryOptions {
  /** How long a write waits for the log before answering 503. */
  appendTimeoutMs?: number;
  /** How long a write's answer is replayed for its Idempotency-Key. */
  idempotencyRetentionMs?: number;
  idempotencySweepMs?: number;
  rateLimitSyncMs?: number;
  /** How long an authenticated key is kept before it is looked up again (a revocation or rotation anywhere empties the cache within 500 ms regardless). */
  keyCacheMs?: number;
  /** How often closed hours of metric rollups are folded into hour and day folds (reads stay exact in between; only slower). */
  foldIntervalMs?: number;
}

const DEFAULTS: Required<QueryOptions> = {
  appendTimeoutMs: 5_000,
  idempotencyRetentionMs: 24 * 3_600_000,
  idempotencySweepMs: 10 * 60_000,
  rateLimitSyncMs: 200,
  keyCacheMs: 10_000,
  foldIntervalMs: 5_000,
};

/** The query service: every REST read of the read models, and the tenant's writes through the log, under /api/v1. */
export function queryModule(runtime: Runtime, overrides: QueryOptions = {}): Module {
  const options = { ...DEFAULTS, ...overrides };
  return {
    name: 'query',
    dependsOn: ['database', 'log', 'http'],
    start: async () => {
      const db = runtime.database();
      const reads = runtime.tenantReads();
      const perMinute = runtime.config.EARSHOT_KEY_REQUESTS_PER_MIN;
      const report = (what: string) => (error: unknown) => console.error(`[query] ${what}: ${error instanceof Error ? error.message : String(error)}`);
      const keys = new ApiKeyCache(db, new SecretBox(loadMasterKey(runtime.config)), options.keyCacheMs);
      const limiter = new RateLimiter(db, { now: runtime.now, syncIntervalMs: options.rateLimitSyncMs, onError: report('rate-limit sync failed') });
      // Scope `api`: one key space per tenant for every POST here, apart from the gateway's ingest keys.
      const idempotency = new IdempotencyStore(db, { scope: 'api', retentionMs: options.idempotencyRetentionMs, now: runtime.now });
      const writes = new TenantWrites({ db, log: runtime.log(), idempotency, appendTimeoutMs: options.appendTimeoutMs, now: runtime.now });
      limiter.start();
      const sweeper = runEvery(options.idempotencySweepMs, () => idempotency.sweep(), report('idempotency sweep failed'));
      const folder = runEvery(options.foldIntervalMs, () => foldAll(db, reads, runtime.now()), report('metric folding failed'));

      await runtime.http().register(
        async (api: FastifyInstance) => {
          useZodContracts(api, runtime.config);
          registerAuthHook(api, {
            keys,
            adminToken: runtime.config.EARSHOT_ADMIN_TOKEN,
            now: runtime.now,
            environments: runtime.config.EARSHOT_KEY_ENVIRONMENTS,
          });
          registerRateLimitHook(api, limiter);
          api.addHook('onClose', async () => {
            await limiter.stop();
            await sweeper.stop();
            await folder.stop();
            await idempotency.settled();
          });

          registerHealthRoutes(api, runtime.health, 'earshot');
          registerRealtimeRoutes(api, reads, perMinute, runtime.now);
          registerCallRoutes(api, reads, perMinute);
          registerOutcomeRoutes(api, reads, writes, perMinute);
          registerIncidentRoutes(api, reads, writes, perMinute);
          registerIncidentChangeRoutes(api, reads, writes, perMinute);
          registerAlertRoutes(api, reads, perMinute);
          registerAlertRuleRoutes(api, reads, writes, perMinute);
          registerDeploymentRoutes(api, reads, writes, perMinute, runtime.now);
          registerDeploymentImpactRoutes(api, reads, perMinute);
          registerMetricRoutes(api, reads, perMinute, runtime.now);
          registerMetricCatalogueRoutes(api, perMinute);
          registerAgentRoutes(api, reads, perMinute);
          registerUsageRoutes(api, reads, perMinute, runtime.now);
          registerBillingRoutes(api, reads, perMinute);
          registerAuditRoutes(api, reads, perMinute);
        },
        { prefix: '/api/v1' },
      );
      // Stopping happens in onClose above, when the HTTP module closes after this one.
      return { stop: async () => undefined };
    },
  };
}
