import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { LiveSnapshotSchema } from '@earshot/contracts';
import { sql, type Statements, type SQLQuery, type TenantReads } from '@earshot/db';
import { METRICS, quantile, type Sketch } from '@earshot/metrics';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import { ROUTE_ERRORS } from '@earshot/server';

/**
 * The live window: the last 15 minutes. concurrentCalls counts calls in
 * progress that had an event in it (one silent longer is taken as lost, not
 * live); successRate is the share completed of the calls started in it that
 * have ended; p95LatencyMs is the p95 of per-turn total latency in it.
 */
const LIVE_WINDOW_MS = 15 * 60_000;

interface LiveRow {
  concurrent: number;
  ended: number;
  completed: number;
  sketch: Record<string, string> | null;
}

/** The statement GET /realtime runs: three index-backed reads in one round trip. */
export function liveStatement(now: Date): SQLQuery {
  const since = new Date(now.getTime() - LIVE_WINDOW_MS);
  const minute = new Date(Math.floor(since.getTime() / 60_000) * 60_000);
  return sql`
    select
      (select count(*) from calls where status = 'in_progress' and last_event_at >= ${since})::int as concurrent,
      e.ended::int, e.completed::int,
      (select jsonb_object_agg(key, n) from (
         select b.key, sum(b.value::bigint) as n from metric_rollups r, jsonb_each_text(r.sketch) b
          where r.metric = ${METRICS.turnLatencyTotal} and r.minute >= ${minute} group by b.key) s) as sketch
    from (select count(*) filter (where status <> 'in_progress') as ended, count(*) filter (where status = 'completed') as completed
            from calls where started_at >= ${since}) e`;
}

/** The live snapshot at `at`: what GET /realtime answers and GraphQL's `realtime` resolves to. */
export async function readLiveSnapshot(tx: Statements, at: Date): Promise<z.infer<typeof LiveSnapshotSchema>> {
  const [row] = (await tx.query(liveStatement(at))) as LiveRow[];
  const sketch: Sketch = Object.fromEntries(Object.entries(row?.sketch ?? {}).map(([k, v]) => [k, Number(v)]));
  const ended = row?.ended ?? 0;
  return {
    ok: true as const,
    live: {
      concurrentCalls: row?.concurrent ?? 0,
      // No call ended in the window: nothing failed, and nothing succeeded either; 0 with endedCalls 0 says so.
      successRate: ended === 0 ? 0 : Math.round(((row?.completed ?? 0) / ended) * 10_000) / 10_000,
      p95LatencyMs: Math.round(quantile(sketch, 0.95) ?? 0),
      endedCalls: ended,
      windowSeconds: LIVE_WINDOW_MS / 1000,
      asOf: at.toISOString(),
    },
  };
}

/** GET /realtime: the spec's Live snapshot over LIVE_WINDOW_MS. */
export function registerRealtimeRoutes(app: FastifyInstance, reads: TenantReads, now: () => Date): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/realtime',
    {
      schema: { response: { 200: LiveSnapshotSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /realtime') },
    },
    async (request) => readAs(reads, request, (tx) => readLiveSnapshot(tx, now())),
  );
}
