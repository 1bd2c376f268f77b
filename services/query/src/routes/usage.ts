import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { periodAt, usageReport } from '@earshot/billing-rules';
import { UsageListSchema, UsageQuerySchema, type UsageMeterSchema, type CursorKinds } from '@earshot/contracts';
import type { TenantReads } from '@earshot/db';
import { readPlan, readQuantities, usageRows, type UsageRow } from '@earshot/read-models';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

const CURSOR: CursorKinds = { value: 'none', id: 'day' };

function usageOf(row: UsageRow): z.infer<typeof UsageMeterSchema> {
  return {
    day: row.day,
    eventsIngested: row.events_ingested,
    calls: row.calls,
    callMinutes: Math.round((row.call_ms / 60_000) * 100) / 100,
    apiRequests: row.api_requests,
    storedBytes: row.stored_bytes,
  };
}

/**
 * GET /usage: the usage meters per UTC day (events ingested and their bytes,
 * calls and their minutes, ingest API requests), newest first, and the
 * current billing period priced by the tenant's plan.
 */
export function registerUsageRoutes(app: FastifyInstance, reads: TenantReads, now: () => Date): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/usage',
    {
      schema: { querystring: UsageQuerySchema, response: { 200: UsageListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /usage') },
    },
    async (request) => {
      const { from, to } = request.query;
      const paging = pagingOf(request.query, CURSOR);
      const at = now();
      const { rows, period } = await readAs(reads, request, async (tx) => {
        const plan = await readPlan(tx);
        const current = periodAt(at, plan.period);
        return {
          rows: await usageRows(tx, { from, to }, paging),
          period: usageReport(plan, current, await readQuantities(tx, current), at),
        };
      });
      return { ...pageOf(rows, paging, (r) => ({ v: r.day, id: r.day }), usageOf), period };
    },
  );
}
