import type { FastifyInstance } from 'fastify';
import { AUDIT_TRAIL_MIGRATIONS } from '@earshot/audit-trail';
import { ApiKeyCache, AUTH_MIGRATIONS, loadMasterKey, SecretBox } from '@earshot/auth';
import type { MigrationSet } from '@earshot/db';
import { RATE_LIMIT_MIGRATIONS, RateLimiter } from '@earshot/rate-limit';
import { registerAuthHook, registerRateLimitHook, type Module, type Runtime, useZodContracts } from '@earshot/server';
import { registerApiKeyRoutes } from './routes/api-keys';
import { registerOwnTenantRoutes } from './routes/tenant';
import { registerTenantRoutes } from './routes/tenants';
import { registerWebhookSecretRoutes } from './routes/webhook-secret';

/** Keys, tenants, the audit log and rate-limit windows: all shared, none the keys service's own. */
export const KEYS_MIGRATIONS: readonly MigrationSet[] = [AUTH_MIGRATIONS, RATE_LIMIT_MIGRATIONS, AUDIT_TRAIL_MIGRATIONS];

export interface KeysOptions {
  /** How long an authenticated key is kept; a change anywhere empties the cache within `changeCheckMs` regardless. */
  keyCacheMs?: number;
  changeCheckMs?: number;
  usageFlushMs?: number;
  rateLimitSyncMs?: number;
}

const DEFAULTS: Required<KeysOptions> = { keyCacheMs: 10_000, changeCheckMs: 500, usageFlushMs: 1_000, rateLimitSyncMs: 200 };

/** The credentials service: the tenant's API keys and webhook secret under /api/v1, and the operator's tenants. */
export function keysModule(runtime: Runtime, overrides: KeysOptions = {}): Module {
  const options = { ...DEFAULTS, ...overrides };
  return {
    name: 'keys',
    dependsOn: ['database', 'http'],
    start: async () => {
      const db = runtime.database();
      const { config } = runtime;
      const report = (what: string) => (error: unknown) => console.error(`[keys] ${what}: ${error instanceof Error ? error.message : String(error)}`);
      const box = new SecretBox(loadMasterKey(config));
      const keys = new ApiKeyCache(db, box, options.keyCacheMs, {
        changeCheckMs: options.changeCheckMs,
        usageFlushMs: options.usageFlushMs,
        onError: report('usage flush failed'),
      });
      const limiter = new RateLimiter(db, { now: runtime.now, syncIntervalMs: options.rateLimitSyncMs, onError: report('rate-limit sync failed') });
      limiter.start();

      await runtime.http().register(
        async (api: FastifyInstance) => {
          useZodContracts(api, runtime.config);
          registerAuthHook(api, { keys, adminToken: config.EARSHOT_ADMIN_TOKEN, now: runtime.now, environments: config.EARSHOT_KEY_ENVIRONMENTS });
          registerRateLimitHook(api, limiter);
          api.addHook('onClose', () => limiter.stop());

          registerApiKeyRoutes(api, { db, requestsPerMinute: config.EARSHOT_KEY_REQUESTS_PER_MIN });
          registerWebhookSecretRoutes(api, db, box, config.EARSHOT_KEY_REQUESTS_PER_MIN);
          registerTenantRoutes(api, db);
          registerOwnTenantRoutes(api, db, config.EARSHOT_KEY_REQUESTS_PER_MIN);
        },
        { prefix: '/api/v1' },
      );
      // Stopping happens in the onClose hooks above, when the HTTP module closes.
      return { stop: async () => undefined };
    },
  };
}
