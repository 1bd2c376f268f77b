import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import {
  ApiError,
  ErrorBodySchema,
  PlanRetentionAnswerSchema,
  PlanRetentionParamsSchema,
  PlanRetentionSchema,
  RetentionSchema,
  TenantDataSettingsAnswerSchema,
  TenantDataSettingsSchema,
  TenantParamsSchema,
} from '@earshot/contracts';
import { sql, type ConnectionPool } from '@earshot/db';
import { allPlanRetention, planIdOf, resolveSettings, savePlanRetention, saveTenantSettings, tenantSettings, type DeploymentDefaults } from '../data-settings';

const ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema } as const;
const config = { policy: { auth: 'admin' as const } };

/**
 * The operator's data settings under /admin (Bearer EARSHOT_ADMIN_TOKEN):
 * per tenant, the silence after which a call is abandoned and what its read
 * models keep; per plan, what its tenants keep. Each answer says what
 * applies in the end, and from which level.
 */
export function registerDataSettingsRoutes(app: FastifyInstance, db: ConnectionPool, defaults: DeploymentDefaults): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  async function answer(tenantId: string) {
    const [tenant] = (await db.query(sql`select id from tenants where id = ${tenantId}`)) as { id: string }[];
    if (!tenant) throw new ApiError('NOT_FOUND', `no tenant ${tenantId}`);
    const settings = await tenantSettings(db, tenantId);
    const planId = await planIdOf(db, tenantId);
    const effective = resolveSettings(settings, planId, (await allPlanRetention(db)).get(planId), defaults);
    return { ok: true as const, tenantId, settings, effective };
  }

  routes.get(
    '/admin/tenants/:id/data-settings',
    { schema: { params: TenantParamsSchema, response: { 200: TenantDataSettingsAnswerSchema, ...ERRORS } }, config },
    (request) => answer(request.params.id),
  );

  routes.put(
    '/admin/tenants/:id/data-settings',
    { schema: { params: TenantParamsSchema, body: TenantDataSettingsSchema, response: { 200: TenantDataSettingsAnswerSchema, ...ERRORS } }, config },
    async (request) => {
      const tenantId = request.params.id;
      await answer(tenantId);
      await saveTenantSettings(db, tenantId, request.body, request.arrivedAt);
      await recordAudit(db, {
        tenantId,
        actor: { kind: 'operator' },
        at: request.arrivedAt,
        action: 'tenant.data_settings.changed',
        target: tenantId,
        ip: request.ip,
        requestId: request.id,
        detail: { settings: request.body },
      });
      return answer(tenantId);
    },
  );

  routes.get(
    '/admin/plans/:planId/retention',
    { schema: { params: PlanRetentionParamsSchema, response: { 200: PlanRetentionAnswerSchema, ...ERRORS } }, config },
    async (request) => {
      const { planId } = request.params;
      return { ok: true as const, planId, retention: (await allPlanRetention(db)).get(planId) ?? RetentionSchema.parse({}) };
    },
  );

  routes.put(
    '/admin/plans/:planId/retention',
    { schema: { params: PlanRetentionParamsSchema, body: PlanRetentionSchema, response: { 200: PlanRetentionAnswerSchema, ...ERRORS } }, config },
    async (request) => {
      const { planId } = request.params;
      await savePlanRetention(db, planId, request.body.retention, request.arrivedAt);
      request.log.warn({ planId, ip: request.ip }, 'plan retention set by the operator');
      return { ok: true as const, planId, retention: request.body.retention };
    },
  );
}
