import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { periodAt, readPlan, readQuantities, usageReport } from '@earshot/billing-rules';
import { UsageListSchema, UsageQuerySchema, type UsageMeterSchema, type CursorKinds } from '@earshot/contracts';
import { sql, type SQLQuery, type TenantReads } from '@earshot/db';
import { windowOf, pageOf, pagingOf, type Paging, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

const CURSOR: CursorKinds = { value: 'none', id: 'day' };

interface UsageRow {
  day: string;
  events_ingested: number;
  calls: number;
  call_ms: number;
  api_requests: number;
  stored_bytes: number;
}

/** Days newest first; a day is its own key, so the cursor is the last day shown. */
function usagePageStatement(from: string | undefined, to: string | undefined, paging: Paging): SQLQuery {
  const after = paging.after;
  const filters = [
    after ? sql`day < ${after.id}::date` : sql`true`,
    from ? sql`day >= (${from}::timestamptz at time zone 'UTC')::date` : sql`true`,
    to ? sql`day < (${to}::timestamptz at time zone 'UTC')::date` : sql`true`,
  ];
  return sql`select day::text as day, events_ingested, calls, call_ms, api_requests, stored_bytes from usage_meters where ${sql.join(filters, sql` and `)} order by day desc ${windowOf(paging)}`;
}

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
          rows: (await tx.query(usagePageStatement(from, to, paging))) as UsageRow[],
          period: usageReport(plan, current, await readQuantities(tx, current), at),
        };
      });
      return { ...pageOf(rows, paging, (r) => ({ v: r.day, id: r.day }), usageOf), period };
    },
  );
}
