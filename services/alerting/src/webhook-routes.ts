import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AlertNotificationListQuerySchema, AlertNotificationListSchema, AlertWebhookInputSchema, AlertWebhookSchema } from '@earshot/contracts';
import { inTenant, sql, type ConnectionPool } from '@earshot/db';
import { newestFirst, pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';

interface NotificationRow {
  id: string;
  event_type: string;
  alert_id: string;
  attempt: number;
  url: string;
  status: 'delivered' | 'failed' | 'retrying';
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  at: Date;
}

/** PUT/GET/DELETE /alerts/webhook (where notifications go) and GET /alerts/notifications (every delivery attempt, newest first, paged as every list is). */
export function registerWebhookRoutes(app: FastifyInstance, db: ConnectionPool, now: () => Date): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tenantOf = (caller: { tenant: { id: string } } | null | undefined) => {
    if (!caller) throw new Error('an alerting route reached its handler without a caller');
    return caller.tenant.id;
  };

  routes.put(
    '/alerts/webhook',
    {
      schema: { body: AlertWebhookInputSchema, response: { 200: AlertWebhookSchema, ...ROUTE_ERRORS.read } },
      config: { policy: { auth: 'apiKey', scope: 'alerts:write' } },
    },
    async (request) => {
      const tenantId = tenantOf(request.caller);
      const at = now();
      await inTenant(db, tenantId, (tx) =>
        tx.query(sql`
      insert into alert_webhooks (tenant_id, url, enabled, updated_at) values (${tenantId}, ${request.body.url}, ${request.body.enabled}, ${at})
      on conflict (tenant_id) do update set url = excluded.url, enabled = excluded.enabled, updated_at = excluded.updated_at`),
      );
      return { ok: true as const, url: request.body.url, enabled: request.body.enabled, updatedAt: at.toISOString() };
    },
  );

  routes.get(
    '/alerts/webhook',
    {
      schema: { response: { 200: AlertWebhookSchema, ...ROUTE_ERRORS.read } },
      config: { policy: { auth: 'apiKey', scope: 'alerts:read' } },
    },
    async (request) => {
      const [row] = (await inTenant(db, tenantOf(request.caller), (tx) => tx.query(sql`select url, enabled, updated_at from alert_webhooks`))) as {
        url: string;
        enabled: boolean;
        updated_at: Date;
      }[];
      return { ok: true as const, url: row?.url ?? null, enabled: row?.enabled ?? false, updatedAt: row?.updated_at.toISOString() ?? null };
    },
  );

  routes.delete(
    '/alerts/webhook',
    {
      schema: { response: { 200: AlertWebhookSchema, ...ROUTE_ERRORS.read } },
      config: { policy: { auth: 'apiKey', scope: 'alerts:write', rateLimits: [] } },
    },
    async (request) => {
      await inTenant(db, tenantOf(request.caller), (tx) => tx.query(sql`delete from alert_webhooks`));
      return { ok: true as const, url: null, enabled: false, updatedAt: null };
    },
  );

  routes.get(
    '/alerts/notifications',
    {
      schema: { querystring: AlertNotificationListQuerySchema, response: { 200: AlertNotificationListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: { auth: 'apiKey', scope: 'alerts:read' } },
    },
    async (request) => {
      const paging = pagingOf(request.query, { value: 'time', id: 'text' });
      const keyset = newestFirst('at', 'id', paging);
      const rows = (await inTenant(db, tenantOf(request.caller), (tx) =>
        tx.query(sql`
      select id, event_type, alert_id, attempt, url, status, http_status, error, duration_ms, at from alert_notifications
      where ${keyset.where} ${keyset.order} ${keyset.window}`),
      )) as NotificationRow[];
      return pageOf(
        rows,
        paging,
        (r) => ({ v: r.at.toISOString(), id: r.id }),
        (r) => ({
          id: r.id,
          eventType: r.event_type,
          alertId: r.alert_id,
          attempt: r.attempt,
          url: r.url,
          status: r.status,
          httpStatus: r.http_status,
          error: r.error,
          durationMs: r.duration_ms,
          at: r.at.toISOString(),
        }),
      );
    },
  );
}
