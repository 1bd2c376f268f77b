import type { FastifyInstance } from 'fastify';
import { AUDIT_TRAIL_MIGRATIONS } from '@earshot/audit-trail';
import { AUTH_MIGRATIONS } from '@earshot/auth';
import type { MigrationSet } from '@earshot/db';
import { PROVIDER_CONNECTIONS_MIGRATIONS } from '@earshot/provider-connections';
import { RATE_LIMIT_MIGRATIONS } from '@earshot/rate-limit';
import { type Module, type Runtime, useZodContracts } from '@earshot/server';
import { registerApiKeyRoutes } from './routes/api-keys';
import { registerProviderConnectionRoutes } from './routes/provider-connections';
import { registerOwnTenantRoutes } from './routes/tenant';
import { registerTenantRoutes } from './routes/tenants';
import { registerWebhookSecretRoutes } from './routes/webhook-secret';

/** Keys, tenants, provider connections, the audit log and rate-limit windows: all shared, none the keys service's own. */
export const KEYS_MIGRATIONS: readonly MigrationSet[] = [AUTH_MIGRATIONS, PROVIDER_CONNECTIONS_MIGRATIONS, RATE_LIMIT_MIGRATIONS, AUDIT_TRAIL_MIGRATIONS];

/** The credentials service: the tenant's API keys, webhook secret and provider connections under /api/v1, and the operator's tenants. */
export function keysModule(runtime: Runtime): Module {
  return {
    name: 'keys',
    dependsOn: ['database', 'http', 'access'],
    start: async () => {
      const db = runtime.database();
      const { secrets } = runtime.access();
      await runtime.http().register(
        async (api: FastifyInstance) => {
          useZodContracts(api, runtime.config);
          registerApiKeyRoutes(api, { db });
          registerWebhookSecretRoutes(api, db, secrets);
          registerTenantRoutes(api, db, secrets);
          registerOwnTenantRoutes(api, db);
          registerProviderConnectionRoutes(api, { db, box: secrets, publicUrl: runtime.config.EARSHOT_PUBLIC_URL });
        },
        { prefix: '/api/v1' },
      );
      return { stop: async () => undefined };
    },
  };
}
