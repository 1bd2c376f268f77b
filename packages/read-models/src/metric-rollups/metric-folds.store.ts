import { IsolationLevel, sql, TENANT_SETTING, type ConnectionPool, type Queryable, type SQLQuery, type TenantReads } from '@earshot/db';
import { METRICS, QUANTILES, SketchSum, type Sketch } from '@earshot/metrics';
import { counterMergeSet } from '../counter-merge';
import { metricRollups } from './metric-rollups.projection';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The start of the hour `now` is in: still open, so not folded yet. */
const openHour = (now: Date) => new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);

/** Every metric: with a minute range, the rollups' primary key (tenant, metric, minute, agent) is then read as one range per metric. */
const METRIC_NAMES = Object.values(METRICS);

/**
 * The minute rollups of the given hours or days, each row with the start of
 * its span. The minute range bounds the primary-key scan, the join keeps the
 * spans asked for.
 */
function minutesOf(span: 'hour' | 'day', starts: readonly Date[]): SQLQuery {
  const spanMs = span === 'hour' ? HOUR_MS : DAY_MS;
  const times = starts.map((s) => s.getTime());
  return sql`
    select s.start, r.metric, r.agent_id, r.count, r.sum, r.min, r.max, r.sketch
    from metric_rollups r join unnest(${starts}::timestamptz[]) s(start) on date_trunc(${span}, r.minute, 'UTC') = s.start
    where r.metric = any(${METRIC_NAMES}::text[]) and r.minute >= ${new Date(Math.min(...times))} and r.minute < ${new Date(Math.max(...times) + spanMs)}`;
}

/**
 * The per-agent hour folds of a day still open, before `open`, each row with
 * the day's start: every closed hour with a write has a current one by then,
 * so the day so far costs its hours' folds to read, not every minute again
 * each time one of its hours is folded. Naming the metrics keeps the primary
 * key read as one range per metric, not every hour folded.
 */
function hoursSoFarOf(day: Date, open: Date): SQLQuery {
  return sql`
    select ${day}::timestamptz as start, f.metric, f.agent_id, f.count, f.sum, f.min, f.max, f.sketch from metric_rollup_folds f
    where f.span = 'hour' and f.metric = any(${METRIC_NAMES}::text[]) and not f.all_agents and f.start >= ${day} and f.start < ${open}`;
}

/**
 * Writes the `span` folds of `rows` (minutesOf or hoursSoFarOf), per agent
 * and for all agents: counts and sums added, min and max kept, sketches
 * merged by adding bucket counts (one grouped pass over the buckets, not a
 * merge per row).
 */
function foldStatement(tenantId: string, span: 'hour' | 'day', rows: SQLQuery): SQLQuery {
  return sql`
    with r as (${rows}),
    totals as (
      select start, metric, grouping(agent_id) = 1 as all_agents, coalesce(agent_id, '') as agent_id, sum(count) as count, sum(sum) as sum, min(min) as min, max(max) as max
      from r group by grouping sets ((start, metric, agent_id), (start, metric))),
    bins as (
      select start, metric, grouping(agent_id) = 1 as all_agents, coalesce(agent_id, '') as agent_id, b.key, sum(b.value::bigint) as n
      from r, jsonb_each_text(r.sketch) b group by grouping sets ((start, metric, agent_id, b.key), (start, metric, b.key))),
    sketches as (select start, metric, all_agents, agent_id, jsonb_object_agg(key, n) as sketch from bins group by 1, 2, 3, 4)
    insert into metric_rollup_folds (tenant_id, span, start, metric, all_agents, agent_id, count, sum, min, max, sketch)
    select ${tenantId}, ${span}, t.start, t.metric, t.all_agents, t.agent_id, t.count, t.sum, t.min, t.max, s.sketch
    from totals t left join sketches s using (start, metric, all_agents, agent_id)`;
}

/**
 * Stores each new fold's percentiles, read from its sketch by the function
 * reads use, so a series bucket that is one whole fold is the same number
 * whether read from here or from the sketch.
 */
async function writePercentiles(tx: Queryable, span: 'hour' | 'day', starts: readonly Date[]): Promise<void> {
  const folds = (await tx.query(sql`
    select start, metric, all_agents, agent_id, sketch from metric_rollup_folds where span = ${span} and start = any(${starts}::timestamptz[]) and sketch is not null`)) as {
    start: Date;
    metric: string;
    all_agents: boolean;
    agent_id: string;
    sketch: Sketch;
  }[];
  if (folds.length === 0) return;
  const sums = folds.map((f) => new SketchSum().add(f.sketch));
  const column = (q: number) => sums.map((sum) => sum.quantile(q));
  await tx.query(sql`
    update metric_rollup_folds f set p50 = u.p50, p95 = u.p95, p99 = u.p99
    from unnest(${folds.map((f) => f.start)}::timestamptz[], ${folds.map((f) => f.metric)}::text[], ${folds.map((f) => f.all_agents)}::boolean[], ${folds.map((f) => f.agent_id)}::text[],
      ${column(QUANTILES.p50)}::float8[], ${column(QUANTILES.p95)}::float8[], ${column(QUANTILES.p99)}::float8[]) u(start, metric, all_agents, agent_id, p50, p95, p99)
    where f.span = ${span} and f.start = u.start and f.metric = u.metric and f.all_agents = u.all_agents and f.agent_id = u.agent_id`);
}

/** The role that writes read models; folds are read models too. */
const WRITER_ROLE = 'earshot_projector';

/** A minute closed this long has had its batches; a late event's adds a shard again, merged while its hour is recent. */
const SHARDS_SETTLE_MS = 2 * 60_000;

/** The hour before the open one, where the shards of an hour's last minutes are merged once it has closed. */
const recentSince = (now: Date) => new Date(openHour(now).getTime() - HOUR_MS);

/**
 * Merges the shards of a tenant's minutes closed a while, in the open hour and the one before, into shard 0. The
 * projector writes an agent's minute once per log partition, so that its batches never wait on each other; merged,
 * the minutes reads take one by one (the open hour's, an unaligned range's first) are a row each again rather than
 * one per partition. Older minutes are read through their folds. In a transaction of its own: a fold's snapshot
 * would fail on a shard a batch wrote meanwhile.
 */
async function mergeShards(db: ConnectionPool, tenantId: string, now: Date): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(sql`select set_config('role', ${WRITER_ROLE}, true), set_config(${TENANT_SETTING}, ${tenantId}, true)`);
    await tx.query(sql`
      with gone as (
        delete from metric_rollups r
        where r.metric = any(${METRIC_NAMES}::text[]) and r.minute >= ${recentSince(now)} and r.minute < ${new Date(now.getTime() - SHARDS_SETTLE_MS)} and r.shard <> 0
        returning r.metric, r.agent_id, r.minute, r.count, r.sum, r.min, r.max, r.sketch)
      insert into metric_rollups as t (tenant_id, metric, agent_id, minute, shard, count, sum, min, max, sketch)
      select ${tenantId}, metric, agent_id, minute, 0, sum(count), sum(sum), min(min), max(max), earshot_sketch_union(sketch)
      from gone group by metric, agent_id, minute
      on conflict (tenant_id, metric, minute, agent_id, shard) do update set ${counterMergeSet(metricRollups)}`);
  });
}

/**
 * Folds one tenant's changed hours, closed before `now`, from its minute
 * rollups into hour folds, then every closed day they fall in that has no
 * change left into a day fold, and the day still open, if they fall in it,
 * into a fold of the day so far (its marker's `until` is the open hour).
 * One snapshot throughout (repeatable read): the changes deleted are
 * exactly those the folds saw, so a change committed meanwhile keeps its
 * span out of reads until the next fold. Returns the hours folded.
 */
export async function foldTenant(db: ConnectionPool, tenantId: string, now: Date): Promise<number> {
  const open = openHour(now);
  return db.tx(
    async (tx) => {
      const [lock] = (await tx.query(sql`
        select pg_try_advisory_xact_lock(hashtext(${`metric-folds:${tenantId}`})) as held, set_config('role', ${WRITER_ROLE}, true), set_config(${TENANT_SETTING}, ${tenantId}, true)`)) as {
        held: boolean;
      }[];
      // Another folder has this tenant: it folds what this one would.
      if (!lock?.held) return 0;
      const changed = (await tx.query(sql`select hour, max(id) as upto from metric_rollup_changes where hour < ${open} group by hour`)) as {
        hour: Date;
        upto: number;
      }[];
      if (changed.length === 0) return 0;
      const hours = changed.map((c) => c.hour);
      await tx.query(sql`delete from metric_rollup_folds where span = 'hour' and start = any(${hours}::timestamptz[])`);
      await tx.query(foldStatement(tenantId, 'hour', minutesOf('hour', hours)));
      await writePercentiles(tx, 'hour', hours);
      await tx.query(
        sql`insert into metric_rollup_folded (tenant_id, span, start) select ${tenantId}, 'hour', h from unnest(${hours}::timestamptz[]) h on conflict do nothing`,
      );
      await tx.query(sql`
        delete from metric_rollup_changes c using unnest(${hours}::timestamptz[], ${changed.map((c) => c.upto)}::bigint[]) n(hour, upto)
        where c.hour = n.hour and c.id <= n.upto`);
      const days = [...new Set(hours.map((h) => Math.floor(h.getTime() / DAY_MS) * DAY_MS))].map((d) => new Date(d));
      const settled = (await tx.query(sql`
        select d as day from unnest(${days.filter((d) => d.getTime() + DAY_MS <= open.getTime())}::timestamptz[]) d
        where not exists (select 1 from metric_rollup_changes c where c.hour >= d and c.hour < d + interval '24 hours')`)) as { day: Date }[];
      if (settled.length > 0) {
        const starts = settled.map((s) => s.day);
        await tx.query(sql`delete from metric_rollup_folds where span = 'day' and start = any(${starts}::timestamptz[])`);
        await tx.query(foldStatement(tenantId, 'day', minutesOf('day', starts)));
        await writePercentiles(tx, 'day', starts);
        await tx.query(sql`
          insert into metric_rollup_folded (tenant_id, span, start) select ${tenantId}, 'day', d from unnest(${starts}::timestamptz[]) d
          on conflict (tenant_id, span, start) do update set until = null`);
      }
      // The day still open, as far as its closed hours go: every one of them with a change was folded above.
      const today = days.find((d) => d.getTime() + DAY_MS > open.getTime());
      if (today) {
        await tx.query(sql`delete from metric_rollup_folds where span = 'day' and start = ${today}`);
        await tx.query(foldStatement(tenantId, 'day', hoursSoFarOf(today, open)));
        await writePercentiles(tx, 'day', [today]);
        await tx.query(sql`
          insert into metric_rollup_folded (tenant_id, span, start, until) values (${tenantId}, 'day', ${today}, ${open})
          on conflict (tenant_id, span, start) do update set until = excluded.until`);
      }
      return hours.length;
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}

/**
 * Merges every tenant's settled shards and folds its changes. Row-level
 * security hides the changes until a tenant is set, so every tenant is
 * asked, in one round trip each; only a tenant with recent changes gets the
 * merging statement, and only one with closed hours to fold the folding transaction
 * (several round trips), which asking every tenant every round cost in bursts
 * that the reads queued behind.
 */
export async function foldAll(db: ConnectionPool, reads: TenantReads, now: Date): Promise<number> {
  const open = openHour(now);
  const tenants = (await db.query(sql`select id as tenant_id from tenants`)) as { tenant_id: string }[];
  let folded = 0;
  for (const { tenant_id: tenantId } of tenants) {
    const [pending] = await reads.read<{ recent: boolean; closed: boolean }>(
      tenantId,
      sql`select exists (select 1 from metric_rollup_changes where hour >= ${recentSince(now)}) as recent,
        exists (select 1 from metric_rollup_changes where hour < ${open}) as closed`,
    );
    if (pending?.recent) await mergeShards(db, tenantId, now);
    if (pending?.closed) folded += await foldTenant(db, tenantId, now);
  }
  return folded;
}
