import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getTenant } from '@earshot/auth';
import { SCOPES, TenantAnswerSchema } from '@earshot/contracts';
import type { ConnectionPool } from '@earshot/db';
import { ROUTE_ERRORS } from '@earshot/server';

/** GET /tenant: the caller's own tenant, to any of its keys whatever its scopes (a key always knows whose it is). */
export function registerOwnTenantRoutes(app: FastifyInstance, db: ConnectionPool): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/tenant',
    {
      schema: { response: { 200: TenantAnswerSchema, ...ROUTE_ERRORS.read } },
      config: { policy: { auth: 'apiKey', scope: SCOPES } },
    },
    async (request) => {
      const tenantId = request.caller?.tenant.id;
      if (!tenantId) throw new Error('GET /tenant reached its handler without a caller');
      const tenant = await getTenant(db, tenantId, request.arrivedAt);
      if (!tenant) throw new Error(`the caller's tenant ${tenantId} is gone`);
      return { ok: true as const, tenant };
    },
  );
}
