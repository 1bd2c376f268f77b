import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recordAudit } from '@earshot/audit-trail';
import { ApiError, CURRENT_EVENT_VERSION, PricePlanSchema, StoredEventSchema, TenantPlanAnswerSchema, TenantPlanParamsSchema } from '@earshot/contracts';
import { sql, type ConnectionPool } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';
import { appendWithin, ROUTE_ERRORS } from '@earshot/server';
import { planEventData } from '@earshot/billing-rules';
import { BILLING_PROVIDER } from './period-closer';

export interface PlanRouteOptions {
  db: ConnectionPool;
  log: EventLog;
  appendTimeoutMs: number;
}

/**
 * PUT /admin/tenants/{id}/plan (operator): the tenant's price plan, as a
 * billing.plan.changed event, so a replay of the log prices every period the
 * same way. It is in force once the projector has applied it.
 */
export function registerPlanRoutes(app: FastifyInstance, { db, log, appendTimeoutMs }: PlanRouteOptions): void {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/admin/tenants/:id/plan',
    {
      schema: { params: TenantPlanParamsSchema, body: PricePlanSchema, response: { 200: TenantPlanAnswerSchema, ...ROUTE_ERRORS.operatorOne } },
      config: { policy: { auth: 'admin' } },
    },
    async (request) => {
      const tenantId = request.params.id;
      const [tenant] = (await db.query(sql`select id from tenants where id = ${tenantId}`)) as { id: string }[];
      if (!tenant) throw new ApiError('NOT_FOUND', `no tenant ${tenantId}`);
      const plan = request.body;
      const at = request.arrivedAt.toISOString();
      const event = StoredEventSchema.parse({
        type: 'billing.plan.changed',
        version: CURRENT_EVENT_VERSION,
        idempotency_key: `billing.plan:${randomUUID()}`,
        occurred_at: at,
        received_at: at,
        tenant: tenantId,
        provider: BILLING_PROVIDER,
        call: null,
        data: planEventData(plan, 'operator'),
      });
      await appendWithin(log, [eventsTopic.record(event, { recordId: `plan:${tenantId}` })], appendTimeoutMs);
      await recordAudit(db, {
        tenantId,
        actor: { kind: 'operator' },
        at: request.arrivedAt,
        action: 'billing.plan.changed',
        target: plan.id,
        ip: request.ip,
        requestId: request.id,
        detail: { plan },
      });
      return { ok: true as const, tenantId, plan };
    },
  );
}
