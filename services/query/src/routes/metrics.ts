import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { MetricQuerySchema, MetricSeriesSchema, type MetricSeries } from '@earshot/contracts';
import { sql, type ConnectionPool, type Queryable, type SQLQuery } from '@earshot/db';
import { quantile, type Sketch } from '@earshot/projector';
import { bucketStarts, INTERVAL_MS, METRIC_CATALOGUE, type MetricSource } from '../metrics/catalogue';
import { seriesRange } from '../metrics/series-range';
import { COMMON_ERRORS } from '../route-schema';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

export interface SeriesRequest {
  source: MetricSource;
  from: Date;
  to: Date;
  intervalMs: number;
  agentId: string | undefined;
}

/** Bucket start of a column, aligned to `from`. */
const bucket = (column: SQLQuery, request: SeriesRequest) => sql`date_bin(${`${request.intervalMs / 1000} seconds`}::interval, ${column}, ${request.from})`;

/**
 * The statement a series runs: one grouped scan of the read model over the
 * range. Percentiles come from the rollups' sketches, summed bucket by bucket
 * (the merge of DDSketches) and read in TypeScript with the projector's own
 * quantile function.
 */
export function seriesStatement(request: SeriesRequest): SQLQuery {
  const { source, from, to, agentId } = request;
  switch (source.from) {
    case 'rollup-count':
    case 'rollup-mean': {
      const byAgent = agentId === undefined ? sql`true` : sql`agent_id = ${agentId}`;
      const value = source.from === 'rollup-count' ? sql`sum(count)::float8` : sql`(sum(sum) / nullif(sum(count), 0))::float8`;
      return sql`select ${bucket(sql`minute`, request)} as t, ${value} as value from metric_rollups
        where metric = ${source.metric} and minute >= ${from} and minute < ${to} and ${byAgent} group by 1`;
    }
    case 'rollup-quantile': {
      const byAgent = agentId === undefined ? sql`true` : sql`r.agent_id = ${agentId}`;
      return sql`select ${bucket(sql`r.minute`, request)} as t, b.key, sum(b.value::bigint)::float8 as n from metric_rollups r, jsonb_each_text(r.sketch) b
        where r.metric = ${source.metric} and r.minute >= ${from} and r.minute < ${to} and ${byAgent} group by 1, 2`;
    }
    case 'calls': {
      const byAgent = agentId === undefined ? sql`true` : sql`agent_id = ${agentId}`;
      const value =
        source.measure === 'total' ? sql`count(*)::float8`
        : source.measure === 'success_rate' ? sql`(count(*) filter (where status = 'completed'))::float8 / nullif(count(*) filter (where status <> 'in_progress'), 0)`
        : source.measure === 'quality' ? sql`avg(quality_score)::float8`
        : sql`(count(*) filter (where status = ${source.measure}))::float8`;
      return sql`select ${bucket(sql`started_at`, request)} as t, ${value} as value from calls
        where started_at >= ${from} and started_at < ${to} and ${byAgent} group by 1`;
    }
    case 'outcomes': {
      const byAgent = agentId === undefined ? sql`true` : sql`agent = ${agentId}`;
      const value = source.measure === 'count' ? sql`count(*)::float8` : sql`coalesce(sum(revenue_usd), 0)::float8`;
      return sql`select ${bucket(sql`recorded_at`, request)} as t, ${value} as value from outcomes
        where recorded_at >= ${from} and recorded_at < ${to} and ${byAgent} group by 1`;
    }
    case 'usage':
      return sql`select ${bucket(sql`day::timestamp at time zone 'UTC'`, request)} as t, sum(events_ingested)::float8 as value from usage_meters
        where day >= (${from}::timestamptz at time zone 'UTC')::date and day < (${to}::timestamptz at time zone 'UTC')::date + 1 group by 1`;
    default: {
      const unknown: never = source;
      throw new Error(`unknown metric source ${JSON.stringify(unknown)}`);
    }
  }
}

/** Values per bucket start (ms); buckets with nothing are null, or 0 for counts. */
export async function readSeries(tx: Queryable, request: SeriesRequest): Promise<{ t: string; value: number | null }[]> {
  const values = new Map<number, number | null>();
  if (request.source.from === 'rollup-quantile') {
    const rows = (await tx.query(seriesStatement(request))) as { t: Date; key: string; n: number }[];
    const sketches = new Map<number, Sketch>();
    for (const row of rows) {
      const sketch = sketches.get(row.t.getTime()) ?? {};
      sketch[row.key] = row.n;
      sketches.set(row.t.getTime(), sketch);
    }
    const q = request.source.q;
    for (const [t, sketch] of sketches) {
      const value = quantile(sketch, q);
      values.set(t, value === null ? null : Math.round(value));
    }
  } else {
    const rows = (await tx.query(seriesStatement(request))) as { t: Date; value: number | null }[];
    for (const row of rows) values.set(row.t.getTime(), row.value);
  }
  const counted = request.source.from === 'rollup-count' || request.source.from === 'outcomes' || request.source.from === 'usage' || (request.source.from === 'calls' && request.source.measure !== 'success_rate' && request.source.measure !== 'quality');
  return bucketStarts(request.from.getTime(), request.to.getTime(), request.intervalMs).map((t) => ({ t: new Date(t).toISOString(), value: values.get(t) ?? (counted ? 0 : null) }));
}

/** One metric's series, checked against the catalogue: what GET /metrics answers and GraphQL's `metrics` resolves to. */
export async function readMetric(tx: Queryable, query: z.infer<typeof MetricQuerySchema>, now: Date): Promise<MetricSeries> {
  const definition = METRIC_CATALOGUE[query.name];
  const { from, to, interval } = seriesRange(query, now);
  const series = { source: definition.source, from, to, intervalMs: INTERVAL_MS[interval], agentId: query.agentId };
  // Usage is not kept per agent: an agent's share of it is unknown, not zero.
  const unknown = definition.source.from === 'usage' && query.agentId !== undefined;
  const points = from >= to ? [] : unknown ? bucketStarts(from.getTime(), to.getTime(), series.intervalMs).map((t) => ({ t: new Date(t).toISOString(), value: null })) : await readSeries(tx, series);
  return { ok: true, name: query.name, description: definition.description, unit: definition.unit, interval, from: from.toISOString(), to: to.toISOString(), agentId: query.agentId ?? null, points };
}

/** GET /metrics?name=…&from&to[&interval][&agentId]: a time series of one metric from the catalogue. */
export function registerMetricRoutes(app: FastifyInstance, db: ConnectionPool, requestsPerMinute: number, now: () => Date): void {
  app.withTypeProvider<ZodTypeProvider>().get('/metrics', {
    schema: { querystring: MetricQuerySchema, response: { 200: MetricSeriesSchema, ...COMMON_ERRORS } },
    config: { policy: policyOf('GET /metrics', requestsPerMinute) },
  }, async (request) => readAs(db, request, (tx) => readMetric(tx, request.query, now())));
}
