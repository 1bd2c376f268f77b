import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createTenant, KEY_ENVIRONMENTS, type SecretBox } from '@earshot/auth';
import { recordAudit } from '@earshot/audit-trail';
import { validationError } from '@earshot/contracts';
import type { ConnectionPool } from '@earshot/db';

export const CreateTenantSchema = z.object({
  name: z.string().trim().min(1).max(200),
  /** Production keys start ear_live_, staging keys ear_test_. */
  environment: z.enum(KEY_ENVIRONMENTS).default('production'),
});

/** POST /api/v1/admin/tenants (operator): a tenant, its first key with every scope, and its webhook secret, shown once; recorded in the tenant's audit log. */
export function registerTenantRoutes(app: FastifyInstance, db: ConnectionPool, box: SecretBox): void {
  app.post('/api/v1/admin/tenants', { config: { policy: { auth: 'admin' } } }, async (request, reply) => {
    const input = CreateTenantSchema.safeParse(request.body);
    if (!input.success) throw validationError(input.error, 'tenant');
    const created = await createTenant(db, box, input.data);
    await recordAudit(db, {
      tenantId: created.tenant.id,
      actor: { kind: 'operator' },
      at: request.arrivedAt,
      action: 'tenant.created',
      target: created.tenant.id,
      ip: request.ip,
      requestId: request.id,
      detail: { name: created.tenant.name, environment: input.data.environment },
    });
    return reply.status(201).send({ ok: true, ...created });
  });
}
