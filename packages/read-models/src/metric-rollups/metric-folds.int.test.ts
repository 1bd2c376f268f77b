import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, TENANT_ROLE, TENANT_SETTING, TenantReads, type ConnectionPool } from '@earshot/db';
import { AUTH_MIGRATIONS } from '@earshot/auth';
import { PROJECTOR_MIGRATIONS } from '@earshot/projector';
import { metricNamed, METRICS, QUANTILES, quantile, type MetricSource, type Sketch } from '@earshot/metrics';
import { openTestDatabase } from '@earshot/testing';
import { readSeries, type SeriesRequest } from '../across/metric-series.queries';
import { foldAll, foldTenant } from './metric-folds.store';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const START = Date.parse('2026-10-01T00:00:00.000Z');
const NOW = new Date(START + 4 * DAY);

const sourceOf = (name: string): MetricSource => {
  const source = metricNamed(name)?.source;
  if (!source) throw new Error(`no metric ${name}`);
  return source;
};

/** Ranges and intervals that cut hours and days at their edges, and ones aligned to them. */
const REQUESTS: Omit<SeriesRequest, 'source'>[] = [
  { from: new Date(START - 2 * HOUR + 13 * 60_000 + 27_123), to: new Date(START + 3 * DAY + 5 * HOUR + 7_000), intervalMs: DAY, agentId: undefined },
  { from: new Date(START), to: new Date(START + 3 * DAY), intervalMs: DAY, agentId: undefined },
  { from: new Date(START + 90 * 60_000), to: new Date(START + 2 * DAY + 30 * 60_000), intervalMs: 6 * HOUR, agentId: 'agent_1' },
  { from: new Date(START + 17 * 60_000 + 1), to: new Date(START + DAY), intervalMs: HOUR, agentId: undefined },
  { from: new Date(START + 20 * HOUR), to: new Date(START + 22 * HOUR + 59_999), intervalMs: 300_000, agentId: 'agent_0' },
];
const METRIC_NAMES = ['latency.total_ms.p95', 'latency.llm_ms.p50', 'latency.total_ms.avg', 'turns.count'];

/** What the series are from the minute rollups alone: the same reads with no fold marked (rolled back after). */
async function fromMinutes(db: ConnectionPool, tenant: string, requests: SeriesRequest[]): Promise<unknown[]> {
  const out: unknown[] = [];
  await db
    .tx(async (tx) => {
      await tx.query(sql`delete from metric_rollup_folded`);
      await tx.query(sql`select set_config('role', ${TENANT_ROLE}, true), set_config(${TENANT_SETTING}, ${tenant}, true)`);
      for (const request of requests) out.push(await readSeries(tx, request));
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return out;
}

class RolledBack extends Error {}

/**
 * Minute rollups as the projector writes them: per metric, agent, minute and shard, with a sketch of integer latencies.
 * Each minute gets two agents, and the first of them a second shard, as another partition's batches would write.
 */
async function addMinutes(db: ConnectionPool, tenant: string, fromMs: number, minutes: number, seed: number): Promise<void> {
  await db.tx(async (tx) => {
    await tx.query(sql`select setseed(${seed})`);
    // 7 is prime to every minute count used here, so each pass writes each minute once (a row may not be upserted twice in one statement).
    for (const [pass, shard] of [
      [0, 0],
      [1, 0],
      [0, 1],
    ]) {
      await tx.query(sql`
      insert into metric_rollups as t (tenant_id, metric, agent_id, minute, shard, count, sum, min, max, sketch)
      select ${tenant}::uuid, m.metric, 'agent_' || ((i + ${pass}) % 3), ${new Date(fromMs)}::timestamptz + (i * 7 % ${minutes}) * interval '1 minute', ${shard},
        1, v, v, v, case when m.measured then jsonb_build_object(ceil(ln(v) / ln(1.01 / 0.99))::int::text, 1) end
      from generate_series(1, ${minutes}) i,
        (values (${METRICS.turnLatencyTotal}, true), (${METRICS.turnLatencyLlm}, true), (${METRICS.turns}, false)) m(metric, measured),
        lateral (select case when m.measured then (200 + floor(random() * 1500))::float8 end as v) x
      on conflict (tenant_id, metric, minute, agent_id, shard) do update set count = t.count + 1, sum = t.sum + excluded.sum,
        min = least(t.min, excluded.min), max = greatest(t.max, excluded.max), sketch = earshot_sketch_merge(t.sketch, excluded.sketch)`);
    }
  });
}

describe('metric folds', () => {
  let db: ConnectionPool;
  let reads: TenantReads;
  let close: () => Promise<void>;

  beforeAll(async () => {
    let url: string;
    ({ db, url, close } = await openTestDatabase('metric_folds'));
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS, AUTH_MIGRATIONS]);
    reads = new TenantReads({ url, poolSize: 2, applicationName: 'test-metric-folds' });
  });
  afterAll(async () => {
    await reads.dispose();
    await close();
  });

  it('answers every series exactly as the minute rollups alone do, before and after folding, and after a late change to a folded hour', async () => {
    const tenant = randomUUID();
    const other = randomUUID();
    await addMinutes(db, tenant, START - 3 * HOUR, 4 * 24 * 60, 0.42);
    await addMinutes(db, other, START, 2 * 24 * 60, 0.17);
    const requests = METRIC_NAMES.flatMap((name) => REQUESTS.map((r) => ({ ...r, source: sourceOf(name) })));
    const read = () => inTenant(db, tenant, async (tx) => Promise.all(requests.map((r) => readSeries(tx, r))));

    const before = await read();
    expect(before).toEqual(await fromMinutes(db, tenant, requests));

    expect(await foldTenant(db, tenant, NOW)).toBe(96);
    await foldTenant(db, other, NOW);
    const [folded] = await inTenant(db, tenant, (tx) =>
      tx.query(sql`select count(*) filter (where span = 'day')::int as days, count(*) filter (where span = 'hour')::int as hours from metric_rollup_folded`),
    );
    // Four days of minutes from 21:00 the day before START, all closed by NOW: five days touched, 96 hours.
    expect(folded).toEqual({ days: 5, hours: 96 });
    expect(await read()).toEqual(before);

    // A late event lands in a folded hour of a folded day: reads take its minutes until it is folded again.
    await addMinutes(db, tenant, START + DAY + 5 * HOUR, 30, 0.9);
    const late = await fromMinutes(db, tenant, requests);
    expect(late).not.toEqual(before);
    expect(await read()).toEqual(late);
    expect(await foldTenant(db, tenant, NOW)).toBe(1);
    expect(await inTenant(db, tenant, (tx) => tx.query(sql`select count(*)::int as n from metric_rollup_changes`))).toEqual([{ n: 0 }]);
    expect(await read()).toEqual(late);
  });

  it('folds the day still open as far as its closed hours go, reads through it as the minutes alone give, and folds it whole once it closes', async () => {
    const tenant = randomUUID();
    const today = START + 3 * DAY;
    const now = new Date(today + 10 * HOUR + 30 * 60_000);
    await addMinutes(db, tenant, START, 3 * 24 * 60 + 10 * 60 + 30, 0.61);
    const requests = METRIC_NAMES.flatMap((name) =>
      [
        { from: new Date(START), to: now, intervalMs: DAY, agentId: undefined },
        { from: new Date(START), to: now, intervalMs: DAY, agentId: 'agent_2' },
        // One bucket from noon yesterday: the day so far is the end of a run of hours.
        { from: new Date(today - 12 * HOUR), to: now, intervalMs: DAY, agentId: undefined },
        // Today whole, into the future: the open hour's changes keep the fold so far from passing for the day's.
        { from: new Date(START), to: new Date(today + DAY), intervalMs: DAY, agentId: undefined },
        { from: new Date(today + 2 * HOUR), to: now, intervalMs: 6 * HOUR, agentId: 'agent_0' },
      ].map((r) => ({ ...r, source: sourceOf(name) })),
    );
    const read = () => inTenant(db, tenant, async (tx) => Promise.all(requests.map((r) => readSeries(tx, r))));
    const untilOfToday = async () =>
      inTenant(db, tenant, (tx) => tx.query(sql`select until from metric_rollup_folded where span = 'day' and start = ${new Date(today)}`));

    const foldSoFar = sql`span = 'day' and start = ${new Date(today)} and metric = ${METRICS.turnLatencyTotal} and all_agents`;
    expect(await foldTenant(db, tenant, now)).toBe(3 * 24 + 10);
    expect(await untilOfToday()).toEqual([{ until: new Date(today + 10 * HOUR) }]);
    const [soFar]: { sketch: Sketch; p95: number }[] = await inTenant(db, tenant, (tx) =>
      tx.query(sql`select sketch, p95 from metric_rollup_folds where ${foldSoFar}`),
    );
    expect(soFar?.p95).toBe(soFar && quantile(soFar.sketch, QUANTILES.p95));
    expect(await read()).toEqual(await fromMinutes(db, tenant, requests));

    // A late event in a closed hour of today: reads take that day's hours until it is folded again, with the hour since closed.
    await addMinutes(db, tenant, today + 3 * HOUR, 20, 0.77);
    await addMinutes(db, tenant, today + 10 * HOUR + 30 * 60_000, 60, 0.78);
    const late = await fromMinutes(db, tenant, requests);
    expect(await read()).toEqual(late);
    expect(await foldTenant(db, tenant, new Date(now.getTime() + HOUR))).toBe(2);
    expect(await untilOfToday()).toEqual([{ until: new Date(today + 11 * HOUR) }]);
    expect(await read()).toEqual(late);

    // The fold so far is what a series through today reads: a different one shows in the last bucket.
    const [stored] = await inTenant(db, tenant, (tx) => tx.query(sql`select sketch from metric_rollup_folds where ${foldSoFar}`));
    await db.query(sql`update metric_rollup_folds set sketch = '{"300": 1000000}' where ${foldSoFar}`);
    const [daily] = await inTenant(db, tenant, async (tx) => [
      await readSeries(tx, {
        from: new Date(START),
        to: new Date(today + 11 * HOUR + 5 * 60_000),
        intervalMs: DAY,
        agentId: undefined,
        source: sourceOf('latency.total_ms.p95'),
      }),
    ]);
    expect(daily?.at(-1)?.value).toBe(Math.round(quantile({ 300: 1 }, QUANTILES.p95) ?? 0));
    await db.query(sql`update metric_rollup_folds set sketch = ${JSON.stringify(stored?.sketch)}::jsonb where ${foldSoFar}`);

    // Once the hour written last is folded, with no change left in the day, the fold so far is the whole day's, percentiles and all.
    expect(await foldTenant(db, tenant, new Date(today + 12 * HOUR + 5 * 60_000))).toBe(1);
    await db.query(sql`update metric_rollup_folds set p95 = 12345 where ${foldSoFar}`);
    const wholeDay = { from: new Date(today), to: new Date(today + DAY), intervalMs: DAY, agentId: undefined, source: sourceOf('latency.total_ms.p95') };
    expect(await inTenant(db, tenant, (tx) => readSeries(tx, wholeDay))).toEqual([{ t: new Date(today).toISOString(), value: 12345 }]);

    // Once the day closes and its last hour is folded, it is folded whole.
    await addMinutes(db, tenant, today + 23 * HOUR, 30, 0.79);
    await foldTenant(db, tenant, new Date(today + DAY + HOUR));
    expect(await untilOfToday()).toEqual([{ until: null }]);
    expect(await read()).toEqual(await fromMinutes(db, tenant, requests));
  });

  it("stores each fold's percentiles, and answers a bucket that is one whole fold with them; a fold without them by its sketch", async () => {
    const tenant = randomUUID();
    await addMinutes(db, tenant, START, 2 * 24 * 60, 0.23);
    await foldTenant(db, tenant, NOW);
    const folds: { sketch: Sketch; p50: number; p95: number; p99: number }[] = await inTenant(db, tenant, (tx) =>
      tx.query(sql`select sketch, p50, p95, p99 from metric_rollup_folds where sketch is not null`),
    );
    // Two days: 48 hour folds and 2 day folds, each for two measured metrics, per agent (3) and for all agents.
    expect(folds).toHaveLength(50 * 2 * 4);
    for (const fold of folds)
      expect([fold.p50, fold.p95, fold.p99]).toEqual([
        quantile(fold.sketch, QUANTILES.p50),
        quantile(fold.sketch, QUANTILES.p95),
        quantile(fold.sketch, QUANTILES.p99),
      ]);

    const daily = { source: sourceOf('latency.total_ms.p95'), from: new Date(START), to: new Date(START + 2 * DAY), intervalMs: DAY, agentId: undefined };
    const hourly = { ...daily, to: new Date(START + DAY), intervalMs: HOUR };
    const read = () => inTenant(db, tenant, async (tx) => ({ daily: await readSeries(tx, daily), hourly: await readSeries(tx, hourly) }));
    const before = await read();
    const firstDay = sql`span = 'day' and start = ${new Date(START)} and metric = ${METRICS.turnLatencyTotal} and all_agents`;
    await db.query(sql`update metric_rollup_folds set p95 = 12345 where ${firstDay}`);
    const stored = await read();
    expect(stored.daily.map((p) => p.value)).toEqual([12345, before.daily[1]?.value]);
    expect(stored.hourly).toEqual(before.hourly);
    await db.query(sql`update metric_rollup_folds set p95 = null where ${firstDay}`);
    expect(await read()).toEqual(before);
  });

  it('shows a tenant only its own folds, and no tenant nothing', async () => {
    const tenant = randomUUID();
    await addMinutes(db, tenant, START, 120, 0.3);
    await foldTenant(db, tenant, NOW);
    const seen = await inTenant(db, tenant, (tx) => tx.query(sql`select distinct tenant_id from metric_rollup_folds`));
    expect(seen).toEqual([{ tenant_id: tenant }]);
    const unscoped = await db.tx(async (tx) => {
      await tx.query(sql`select set_config('role', ${TENANT_ROLE}, true)`);
      return tx.query(
        sql`select (select count(*) from metric_rollup_folds)::int as folds, (select count(*) from metric_rollup_folded)::int as folded, (select count(*) from metric_rollup_changes)::int as changes`,
      );
    });
    expect(unscoped).toEqual([{ folds: 0, folded: 0, changes: 0 }]);
  });

  it("merges the shards of a tenant's settled minutes in the open hour and the one before, and reads the same", async () => {
    const tenant = randomUUID();
    await db.query(sql`insert into tenants (id, name, webhook_secret) values (${tenant}, 'sharded', '\\x00')`);
    const now = new Date(START + 10 * HOUR + 30 * 60_000);
    // Three hours before: folded by now, so left as written. Then every minute from the hour before the open one to now.
    await addMinutes(db, tenant, START + 7 * HOUR, 60, 0.3);
    await addMinutes(db, tenant, START + 9 * HOUR, 90, 0.7);
    const requests = METRIC_NAMES.flatMap((name) =>
      [
        { from: new Date(START + 6 * HOUR + 7 * 60_000), to: now, intervalMs: 300_000, agentId: undefined },
        { from: new Date(START + 9 * HOUR), to: now, intervalMs: 60_000, agentId: 'agent_1' },
      ].map((r) => ({ ...r, source: sourceOf(name) })),
    );
    const read = () => inTenant(db, tenant, async (tx) => Promise.all(requests.map((r) => readSeries(tx, r))));
    const shards = () =>
      inTenant(db, tenant, (tx) =>
        tx.query(sql`
          select count(*) filter (where minute < ${new Date(START + 9 * HOUR)})::int as older,
                 count(*) filter (where minute >= ${new Date(START + 9 * HOUR)} and minute < ${new Date(now.getTime() - 120_000)})::int as settled,
                 count(*) filter (where minute >= ${new Date(now.getTime() - 120_000)})::int as latest
          from metric_rollups where shard <> 0`),
      );
    const before = await read();
    expect(await shards()).toEqual([{ older: 180, settled: 264, latest: 6 }]);

    await foldAll(db, reads, now);
    expect(await shards()).toEqual([{ older: 180, settled: 0, latest: 6 }]);
    expect(await read()).toEqual(before);
    expect(await read()).toEqual(await fromMinutes(db, tenant, requests));
  });

  it('folds, each round, every tenant with closed hours to fold and no other', async () => {
    const busy = randomUUID();
    const quiet = randomUUID();
    await db.query(sql`insert into tenants (id, name, webhook_secret) values (${busy}, 'busy', '\\x00'), (${quiet}, 'quiet', '\\x00')`);
    await addMinutes(db, busy, START, 120, 0.5);
    // The hour still open at NOW waits for the next round.
    await addMinutes(db, busy, NOW.getTime() + 60_000, 1, 0.6);
    expect(await foldAll(db, reads, NOW)).toBeGreaterThanOrEqual(2);
    expect(await foldAll(db, reads, NOW)).toBe(0);
    const left = await inTenant(db, busy, (tx) => tx.query(sql`select distinct hour from metric_rollup_changes`));
    expect(left).toEqual([{ hour: NOW }]);
  });
});
