import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AlertListQuerySchema, AlertListSchema, type AlertSchema, type CursorKinds } from '@earshot/contracts';
import type { Statements, TenantReads } from '@earshot/db';
import { alertRows, type AlertRow } from '@earshot/read-models';
import { iso, pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

type Alert = z.infer<typeof AlertSchema>;

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
  const rows = await alertRows(tx, { status: query.status }, paging);
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
