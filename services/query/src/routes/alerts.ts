import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AlertListQuerySchema, AlertListSchema, type AlertSchema, type CursorKinds } from '@earshot/contracts';
import { sql, type Statements, type SQLQuery, type TenantReads } from '@earshot/db';
import { iso, newestFirst, pageOf, pagingOf, type Paging, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

type Alert = z.infer<typeof AlertSchema>;

interface AlertRow {
  id: string;
  rule_id: string;
  rule_name: string | null;
  metric: string;
  comparison: Alert['comparison'];
  threshold: number | null;
  value: number | null;
  window_ms: number | null;
  severity: Alert['severity'];
  agent_id: string | null;
  message: string | null;
  status: Alert['status'];
  fired_at: Date;
  resolved_at: Date | null;
  resolved_value: number | null;
  resolution: string | null;
  resolved_by: string | null;
}

function alertPageStatement(status: string | undefined, paging: Paging): SQLQuery {
  const keyset = newestFirst('fired_at', 'id', paging);
  const byStatus = status === undefined ? sql`true` : sql`status = ${status}`;
  return sql`
    select id, rule_id, rule_name, metric, comparison, threshold, value, window_ms, severity, agent_id, message, status, fired_at, resolved_at,
           resolved_value, resolution, resolved_by
      from alerts where ${keyset.where} and ${byStatus} ${keyset.order} ${keyset.window}`;
}

function alertOf(row: AlertRow): Alert {
  return {
    id: row.id,
    ruleId: row.rule_id,
    ruleName: row.rule_name,
    metric: row.metric,
    comparison: row.comparison,
    threshold: row.threshold,
    value: row.value,
    windowMs: row.window_ms,
    severity: row.severity,
    agentId: row.agent_id,
    message: row.message,
    status: row.status,
    firedAt: iso(row.fired_at),
    resolvedAt: iso(row.resolved_at),
    resolvedValue: row.resolved_value,
    resolution: row.resolution,
    resolvedBy: row.resolved_by,
  };
}

/** A page of the tenant's alerts, newest first: what GET /alerts answers and GraphQL's `alerts` resolves to. */
export async function readAlertPage(tx: Statements, query: z.infer<typeof AlertListQuerySchema>): Promise<z.infer<typeof AlertListSchema>> {
  const paging = pagingOf(query, CURSOR);
  const rows = (await tx.query(alertPageStatement(query.status, paging))) as AlertRow[];
  return pageOf(rows, paging, (r) => ({ v: r.fired_at.toISOString(), id: r.id }), alertOf);
}

/** GET /alerts: newest first, `status` (firing or resolved) filter. Alerts are fired by the alerting rules, not written here. */
export function registerAlertRoutes(app: FastifyInstance, reads: TenantReads): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/alerts',
    {
      schema: { querystring: AlertListQuerySchema, response: { 200: AlertListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /alerts') },
    },
    async (request) => readAs(reads, request, (tx) => readAlertPage(tx, request.query)),
  );
}
