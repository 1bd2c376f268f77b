import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { LiveSnapshotSchema } from '@earshot/contracts';
import type { Statements, TenantReads } from '@earshot/db';
import { quantile, type Sketch } from '@earshot/metrics';
import { LIVE_WINDOW_MS, liveRow } from '@earshot/read-models';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import { ROUTE_ERRORS } from '@earshot/server';

/**
 * The live snapshot at `at`: what GET /realtime answers and GraphQL's
 * `realtime` resolves to. successRate is the share completed of the calls
 * started in the live window that have ended; p95LatencyMs is the p95 of
 * per-turn total latency in it.
 */
export async function readLiveSnapshot(tx: Statements, at: Date): Promise<z.infer<typeof LiveSnapshotSchema>> {
  const row = await liveRow(tx, at);
  const sketch: Sketch = row?.sketch ?? {};
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
