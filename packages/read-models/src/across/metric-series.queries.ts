import { sql, type Statements, type SQLQuery } from '@earshot/db';
import {
  bucketStarts,
  coverOf,
  INTERVAL_MS,
  isoString,
  QUANTILES,
  SketchSum,
  type Cover,
  type MetricSource,
  type QuantileName,
  type Sketch,
} from '@earshot/metrics';

export interface SeriesRequest {
  source: MetricSource;
  from: Date;
  to: Date;
  intervalMs: number;
  agentId: string | undefined;
}

/** Bucket start of a column, aligned to `from`, in milliseconds since the epoch: a number is read faster than a timestamptz. */
const bucket = (column: SQLQuery, request: SeriesRequest) =>
  sql`(extract(epoch from date_bin(${`${request.intervalMs / 1000} seconds`}::interval, ${column}, ${isoString(request.from.getTime())}::timestamptz)) * 1000)::float8`;

/** A fold that is a whole bucket of the series (its span is the interval), and the stored percentile it answers with. */
interface WholeFold {
  span: 'day' | 'hour';
  percentile: QuantileName;
}

/**
 * The rollup rows a series over a cover reads (at: the start of the day,
 * hour or minute; count, sum, sketch, and for a whole fold its stored
 * percentile). A day or hour is read from its fold only while the fold is
 * current (folded, and no change noted since); a day without one is read by
 * its hours, an hour without one by its minutes, so the series equals the
 * one the minutes alone give. Deciding that in the statement keeps a series
 * to one round trip, and a prepared statement plans it once per connection.
 * A day still open is read from its fold so far, as far as that fold goes
 * (its percentiles are not the bucket's), and by its later hours after.
 * With no change left in the whole day, a fold so far holds all of it,
 * since every write notes one: a day whose last hours had nothing to fold is
 * read whole from it.
 * The changes within the cover's folds are read once (they are few: the
 * folder deletes them as it folds), and the folds, folded markers and
 * minute ranges are each read by one index scan for all their starts
 * (`= any(array(…))`), or one per range: a probe per day or hour, or a
 * plain join, which the planner let scan every minute of the metric, cost
 * several times as much.
 */
function rollupRows(cover: Cover, metric: string, agentId: string | undefined, whole: WholeFold | undefined): SQLQuery {
  const folds = agentId === undefined ? sql`f.all_agents` : sql`not f.all_agents and f.agent_id = ${agentId}`;
  const byAgent = agentId === undefined ? sql`true` : sql`r.agent_id = ${agentId}`;
  const percentile = (span: WholeFold['span']) => (whole?.span === span ? sql`f.${sql.ident(whole.percentile)}` : sql`null::float8`);
  return sql`
    with days as materialized (
      select unnest(${cover.days}::timestamptz[]) as d
    ), prefixes as materialized (
      select d, e from unnest(${cover.prefixes.days}::timestamptz[], ${cover.prefixes.ends}::timestamptz[]) p(d, e)
    ), changed as (
      select distinct c.hour from metric_rollup_changes c where c.hour >= ${cover.folds.from}::timestamptz and c.hour < ${cover.folds.to}::timestamptz
    ), fresh_days as (
      select f.start as d from metric_rollup_folded f
      where f.span = 'day' and f.start = any(array(select d from days))
        and not exists (select 1 from changed c where c.hour >= f.start and c.hour < f.start + interval '24 hours')
    ), fresh_prefixes as (
      select f.start as d, f.until from metric_rollup_folded f join prefixes p on f.start = p.d
      where f.span = 'day' and f.start = any(array(select d from prefixes)) and f.until <= p.e
        and not exists (select 1 from changed c where c.hour >= f.start and c.hour < f.until)
    ), hours as (
      select h from unnest(${cover.hours}::timestamptz[]) h where not exists (select 1 from fresh_prefixes p where h >= p.d and h < p.until)
      union all
      select d + g * interval '1 hour' from days, generate_series(0, 23) g where d not in (select d from fresh_days)
    ), fresh_hours as (
      select f.start as h from metric_rollup_folded f
      where f.span = 'hour' and f.start = any(array(select h from hours)) and f.start not in (select hour from changed)
    ), minute_ranges as (
      select s, e from unnest(${cover.minutes.starts}::timestamptz[], ${cover.minutes.ends}::timestamptz[]) m(s, e)
      union all
      select h, h + interval '1 hour' from hours where h not in (select h from fresh_hours)
    )
    select f.start as at, f.count, f.sum, f.sketch, ${percentile('day')} as percentile from metric_rollup_folds f
      where f.span = 'day' and f.metric = ${metric} and ${folds} and f.start = any(array(select d from fresh_days))
    union all
    select f.start, f.count, f.sum, f.sketch, null::float8 from metric_rollup_folds f
      where f.span = 'day' and f.metric = ${metric} and ${folds} and f.start = any(array(select d from fresh_prefixes))
    union all
    select f.start, f.count, f.sum, f.sketch, ${percentile('hour')} from metric_rollup_folds f
      where f.span = 'hour' and f.metric = ${metric} and ${folds} and f.start = any(array(select h from fresh_hours))
    union all
    select r.minute, r.count, r.sum, r.sketch, null from minute_ranges m cross join lateral (
      select * from metric_rollups r where r.metric = ${metric} and ${byAgent} and r.minute >= m.s and r.minute < m.e offset 0) r`;
}

/** The fold that is a whole bucket of a series on its interval's grid, if any. */
function wholeFoldOf(intervalMs: number, percentile: QuantileName): WholeFold | undefined {
  if (intervalMs === INTERVAL_MS['1d']) return { span: 'day', percentile };
  if (intervalMs === INTERVAL_MS['1h']) return { span: 'hour', percentile };
  return undefined;
}

/**
 * The statement a series runs: one grouped scan of the read model over the
 * range. Percentiles come from the rollups' sketches, summed bucket by bucket
 * in TypeScript (the merge of DDSketches) and read with the projector's own
 * quantile function; a bucket that is one whole fold reads the percentile
 * the folder stored from the fold's sketch with that same function.
 */
export function seriesStatement(request: SeriesRequest): SQLQuery {
  const { source, from, to, agentId } = request;
  switch (source.from) {
    case 'rollup-count':
    case 'rollup-mean': {
      const value = source.from === 'rollup-count' ? sql`sum(count)::float8` : sql`(sum(sum) / nullif(sum(count), 0))::float8`;
      return sql`select ${bucket(sql`at`, request)} as t, ${value} as value from (${rollupRows(coverOf(from.getTime(), to.getTime(), request.intervalMs), source.metric, agentId, undefined)}) r group by 1`;
    }
    case 'rollup-quantile': {
      // The sketches themselves: unnesting each into rows to sum them in SQL costs several times what adding them up in TypeScript does.
      const rows = rollupRows(
        coverOf(from.getTime(), to.getTime(), request.intervalMs),
        source.metric,
        agentId,
        wholeFoldOf(request.intervalMs, source.quantile),
      );
      return sql`select ${bucket(sql`r.at`, request)} as t, r.percentile, case when r.percentile is null then r.sketch end as sketch from (${rows}) r where r.sketch is not null`;
    }
    case 'rollup-ratio': {
      const cover = coverOf(from.getTime(), to.getTime(), request.intervalMs);
      const counts = (metric: string) =>
        sql`select ${bucket(sql`at`, request)} as t, sum(count)::float8 as c from (${rollupRows(cover, metric, agentId, undefined)}) r group by 1`;
      return sql`select d.t, coalesce(n.c, 0) / nullif(d.c, 0) as value from (${counts(source.denominator)}) d left join (${counts(source.numerator)}) n on n.t = d.t`;
    }
    case 'calls': {
      const byAgent = agentId === undefined ? sql`true` : sql`agent_id = ${agentId}`;
      const value =
        source.measure === 'total'
          ? sql`count(*)::float8`
          : source.measure === 'success_rate'
            ? sql`(count(*) filter (where status = 'completed'))::float8 / nullif(count(*) filter (where status <> 'in_progress'), 0)`
            : source.measure === 'quality'
              ? sql`avg(quality_score)::float8`
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
export async function readSeries(tx: Statements, request: SeriesRequest): Promise<{ t: string; value: number | null }[]> {
  const values = new Map<number, number | null>();
  if (request.source.from === 'rollup-quantile') {
    // A row with a percentile is a whole fold, alone in its bucket; the others are sketches to add up.
    const rows = (await tx.query(seriesStatement(request))) as (
      { t: number; percentile: number; sketch: null } | { t: number; percentile: null; sketch: Sketch }
    )[];
    const sums = new Map<number, SketchSum>();
    for (const row of rows) {
      const { t } = row;
      if (row.sketch === null) values.set(t, Math.round(row.percentile));
      else sums.set(t, (sums.get(t) ?? new SketchSum()).add(row.sketch));
    }
    const q = QUANTILES[request.source.quantile];
    for (const [t, sum] of sums) {
      const value = sum.quantile(q);
      values.set(t, value === null ? null : Math.round(value));
    }
  } else {
    const rows = (await tx.query(seriesStatement(request))) as { t: number; value: number | null }[];
    for (const row of rows) values.set(row.t, row.value);
  }
  const counted =
    request.source.from === 'rollup-count' ||
    request.source.from === 'outcomes' ||
    request.source.from === 'usage' ||
    (request.source.from === 'calls' && request.source.measure !== 'success_rate' && request.source.measure !== 'quality');
  return bucketStarts(request.from.getTime(), request.to.getTime(), request.intervalMs).map((t) => ({
    t: isoString(t),
    value: values.get(t) ?? (counted ? 0 : null),
  }));
}
