import type { FastifyInstance } from 'fastify';
import { validationError } from '@earshot/contracts';
import { platformQuery, sql, type ConnectionPool } from '@earshot/db';
import { DeliveryListQuerySchema, type DeliveryRecord } from '../audit-records';
import { newestFirst, pageOf, pagingOf } from '@earshot/server';
import { AUDIT_CURSOR } from '../audit-records';

interface DeliveryRow {
  id: string;
  tenant_id: string;
  time: Date;
  provider: string | null;
  event_type: string | null;
  idempotency_key: string | null;
  outcome: DeliveryRecord['status'];
  http_status: number;
  duration_ms: number;
  event_id: string | null;
  reason: string | null;
}

function recordOf(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    time: row.time.toISOString(),
    provider: row.provider,
    event: row.event_type,
    idempotencyKey: row.idempotency_key,
    status: row.outcome,
    httpStatus: row.http_status,
    durationMs: row.duration_ms,
    eventId: row.event_id,
    reason: row.reason,
  };
}

/** GET /api/v1/admin/deliveries (operator): every tenant's delivery audit log, newest first, read as the platform role. */
export function registerDeliveryRoutes(app: FastifyInstance, db: ConnectionPool): void {
  app.get('/api/v1/admin/deliveries', { config: { policy: { auth: 'admin' } } }, async (request) => {
    const query = DeliveryListQuerySchema.safeParse(request.query);
    if (!query.success) throw validationError(query.error, 'query');
    const { tenantId, outcome } = query.data;
    const paging = pagingOf(query.data, AUDIT_CURSOR);
    const keyset = newestFirst('time', 'id', paging, 'descending');
    const rows = (await platformQuery(
      db,
      sql`
      select id, tenant_id, time, provider, event_type, idempotency_key, outcome, http_status, duration_ms, event_id, reason
        from deliveries
       where ${tenantId ? sql`tenant_id = ${tenantId}` : sql`true`}
         and ${outcome ? sql`outcome = ${outcome}` : sql`true`}
         and ${keyset.where}
       ${keyset.order} ${keyset.window}`,
    )) as DeliveryRow[];
    return pageOf(rows, paging, (r) => ({ v: r.time.toISOString(), id: r.id }), recordOf);
  });
}
