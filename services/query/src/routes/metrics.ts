import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { MetricQuerySchema, MetricSeriesSchema, type MetricSeries } from '@earshot/contracts';
import type { Statements, TenantReads } from '@earshot/db';
import { bucketStarts, INTERVAL_MS, isoString, METRIC_CATALOGUE, seriesRange } from '@earshot/metrics';
import { readSeries } from '@earshot/read-models';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import { ROUTE_ERRORS } from '@earshot/server';

/** One metric's series, checked against the catalogue: what GET /metrics answers and GraphQL's `metrics` resolves to. */
export async function readMetric(tx: Statements, query: z.infer<typeof MetricQuerySchema>, now: Date): Promise<MetricSeries> {
  const definition = METRIC_CATALOGUE[query.name];
  const { from, to, interval } = seriesRange(query, now);
  const series = { source: definition.source, from, to, intervalMs: INTERVAL_MS[interval], agentId: query.agentId };
  // Usage is not kept per agent: an agent's share of it is unknown, not zero.
  const unknown = definition.source.from === 'usage' && query.agentId !== undefined;
  const points =
    from >= to
      ? []
      : unknown
        ? bucketStarts(from.getTime(), to.getTime(), series.intervalMs).map((t) => ({ t: isoString(t), value: null }))
        : await readSeries(tx, series);
  return {
    ok: true,
    name: query.name,
    description: definition.description,
    unit: definition.unit,
    interval,
    from: from.toISOString(),
    to: to.toISOString(),
    agentId: query.agentId ?? null,
    points,
  };
}

/** GET /metrics?name=…&from&to[&interval][&agentId]: a time series of one metric from the catalogue. */
export function registerMetricRoutes(app: FastifyInstance, reads: TenantReads, now: () => Date): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/metrics',
    {
      schema: { querystring: MetricQuerySchema, response: { 200: MetricSeriesSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /metrics') },
    },
    async (request) => readAs(reads, request, (tx) => readMetric(tx, request.query, now())),
  );
}
