import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import { createTenant, deleteTenant, getTenant, listTenants, setTenantStatus, type SecretBox } from '@earshot/auth';
import {
  ApiError,
  CreateTenantSchema,
  TenantAnswerSchema,
  TenantDeletedSchema,
  TenantListQuerySchema,
  TenantListSchema,
  TenantParamsSchema,
  type TenantStatus,
  type TenantSummary,
  validationError,
} from '@earshot/contracts';
import type { ConnectionPool } from '@earshot/db';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { CREATED_CURSOR, storeWindow } from '../page';
import { OPERATOR } from '../route-policy';

function found(tenant: TenantSummary | undefined, id: string): TenantSummary {
  if (!tenant) throw new ApiError('NOT_FOUND', `no tenant ${id}`);
  return tenant;
}

/**
 * The operator's tenants under /admin/tenants (Bearer EARSHOT_ADMIN_TOKEN):
 * list, get, suspend (every key of the tenant refused, everywhere within a
 * second), resume, and delete with every row of its data. Creating one is
 * POST /admin/tenants: the tenant, its first key with every scope, and
 * its webhook secret, shown once.
 */
export function registerTenantRoutes(app: FastifyInstance, db: ConnectionPool, secrets: SecretBox): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const config = { policy: OPERATOR };

  app.post('/admin/tenants', { config }, async (request, reply) => {
    const input = CreateTenantSchema.safeParse(request.body);
    if (!input.success) throw validationError(input.error, 'tenant');
    const created = await createTenant(db, secrets, input.data);
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

  routes.get(
    '/admin/tenants',
    { schema: { querystring: TenantListQuerySchema, response: { 200: TenantListSchema, ...ROUTE_ERRORS.operator } }, config },
    async (request) => {
      const paging = pagingOf(request.query, CREATED_CURSOR);
      const rows = await listTenants(db, { status: request.query.status, ...storeWindow(paging) }, request.arrivedAt);
      return pageOf(
        rows,
        paging,
        (tenant) => ({ v: tenant.createdAt, id: tenant.id }),
        (tenant) => tenant,
      );
    },
  );

  routes.get(
    '/admin/tenants/:id',
    { schema: { params: TenantParamsSchema, response: { 200: TenantAnswerSchema, ...ROUTE_ERRORS.operatorOne } }, config },
    async (request) => {
      const { id } = request.params;
      return { ok: true as const, tenant: found(await getTenant(db, id, request.arrivedAt), id) };
    },
  );

  const changeStatus = async (request: FastifyRequest, id: string, status: TenantStatus) => {
    const tenant = found(await setTenantStatus(db, id, status, request.arrivedAt), id);
    await recordAudit(db, {
      tenantId: id,
      actor: { kind: 'operator' },
      at: request.arrivedAt,
      action: status === 'suspended' ? 'tenant.suspended' : 'tenant.resumed',
      target: id,
      ip: request.ip,
      requestId: request.id,
    });
    return { ok: true as const, tenant };
  };
  routes.post(
    '/admin/tenants/:id/suspend',
    { schema: { params: TenantParamsSchema, response: { 200: TenantAnswerSchema, ...ROUTE_ERRORS.operatorOne } }, config },
    (request) => changeStatus(request, request.params.id, 'suspended'),
  );
  routes.post(
    '/admin/tenants/:id/resume',
    { schema: { params: TenantParamsSchema, response: { 200: TenantAnswerSchema, ...ROUTE_ERRORS.operatorOne } }, config },
    (request) => changeStatus(request, request.params.id, 'active'),
  );

  routes.delete(
    '/admin/tenants/:id',
    { schema: { params: TenantParamsSchema, response: { 200: TenantDeletedSchema, ...ROUTE_ERRORS.operatorOne } }, config },
    async (request) => {
      const { id } = request.params;
      const rowsDeleted = await deleteTenant(db, id);
      if (rowsDeleted === undefined) throw new ApiError('NOT_FOUND', `no tenant ${id}`);
      // The tenant's own audit log went with it: the operator's deletion is told to the process log instead.
      request.log.warn({ tenantId: id, ip: request.ip, rowsDeleted }, 'tenant deleted by the operator');
      return { ok: true as const, id, rowsDeleted };
    },
  );
}
