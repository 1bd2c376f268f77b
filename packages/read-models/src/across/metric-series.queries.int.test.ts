import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetricName } from '@earshot/contracts';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { METRIC_CATALOGUE, quantile, sketchOf } from '@earshot/metrics';
import { callScript, logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { foldTenant } from '../metric-rollups/metric-folds.store';
import { readSeries } from './metric-series.queries';

const tenant = randomUUID();
const HOUR = 3_600_000;
const T9 = Date.parse('2026-01-08T09:00:00.000Z');
const T10 = T9 + HOUR;
/** callScript's latency formula: each turn's total milliseconds. */
const turnMs = (turn: number) => 600 + ((turn * 137) % 900);
/** Turn latencies: call-1's nine turns, call-2's and call-3's one each in the 09:00 hour; call-4's one at 10:00. */
const NINE = [...Array(9).keys()].map((i) => turnMs(i + 1));
const AT_NINE = [...NINE, turnMs(1), turnMs(1)];
const AT_TEN = [turnMs(1)];
const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const p95 = (values: readonly number[]) => Math.round(quantile(sketchOf(values), 0.95) ?? Number.NaN);

describe('the metric series query (rollups, calls, outcomes and usage)', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  /** The tenant's events received on 2026-01-08: all but the deployment. */
  let ingestedOnTheEighth = 0;
  /** The values of a series of the catalogue's metric, `from` and `to` in ms, hourly unless told. */
  const series = async (name: MetricName, from: number, to: number, options: { agentId?: string; intervalMs?: number; who?: string } = {}) =>
    (
      await inTenant(db, options.who ?? tenant, (tx) =>
        readSeries(tx, {
          source: METRIC_CATALOGUE[name].source,
          from: new Date(from),
          to: new Date(to),
          intervalMs: options.intervalMs ?? HOUR,
          agentId: options.agentId,
        }),
      )
    ).map((point) => point.value);

  beforeAll(async () => {
    // The query service's migrations hold the sketch merge the folder runs.
    store = await readModelStore('metric_series_queries');
    db = store.db;
    const outcome = (id: string, at: number, agent: string, revenue: number) =>
      sampleEvent('outcome.recorded', {
        tenant,
        idempotency_key: id,
        occurred_at: new Date(at).toISOString(),
        data: { outcome_id: id, call_id: id, agent, revenue_usd: revenue },
      });
    const events = [
      // call-1's ninth turn is interrupted (callScript interrupts every ninth).
      ...callScript({ tenant, providerCallId: 'call-1', agentId: 'agent_a', turns: 9, startMs: T9 }),
      ...callScript({ tenant, providerCallId: 'call-2', agentId: 'agent_b', turns: 1, startMs: T9 + 20 * 60_000, ending: 'failed' }),
      ...callScript({ tenant, providerCallId: 'call-3', agentId: 'agent_a', turns: 1, startMs: T9 + 40 * 60_000, ending: 'transferred' }),
      // A later end-of-call report rescores call-3.
      sampleEvent('call.completed', {
        tenant,
        idempotency_key: 'call-3:rescored',
        occurred_at: new Date(T9 + 50 * 60_000).toISOString(),
        call: { provider_call_id: 'call-3', agent_id: 'agent_a' },
        data: { quality_score: 0.5 },
      }),
      ...callScript({ tenant, providerCallId: 'call-4', agentId: 'agent_a', turns: 1, startMs: T10 + 10 * 60_000, ending: 'silent' }),
      outcome('out-1', T9 + 30 * 60_000, 'agent_a', 100),
      outcome('out-2', T9 + 45 * 60_000, 'agent_b', 50.5),
      outcome('out-3', T10 + 30 * 60_000, 'agent_a', 0),
      // Received the day before: counted on that day's usage.
      sampleEvent('deployment.recorded', { tenant, idempotency_key: 'dep', received_at: '2026-01-07T12:00:00.000Z' }),
      // Another tenant's call and outcome in the same hours, under the same agent name.
      ...callScript({ tenant: randomUUID(), providerCallId: 'elsewhere', agentId: 'agent_a', turns: 3, startMs: T9 + 5 * 60_000 }),
      sampleEvent('outcome.recorded', { tenant: randomUUID(), idempotency_key: 'other', occurred_at: new Date(T9).toISOString() }),
    ];
    ingestedOnTheEighth = events.filter((e) => e.tenant === tenant && e.received_at.startsWith('2026-01-08')).length;
    expect(ingestedOnTheEighth).toBe(events.filter((e) => e.tenant === tenant).length - 1);
    expect(await store.apply(logRecords(events, 0n))).toMatchObject({ deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('counts the calls started per bucket, by status and per agent', async () => {
    expect(await series('calls.total', T9, T9 + 2 * HOUR)).toEqual([3, 1]);
    expect(await series('calls.total', T9, T9 + 2 * HOUR, { agentId: 'agent_a' })).toEqual([2, 1]);
    expect(await series('calls.completed', T9, T9 + 2 * HOUR)).toEqual([1, 0]);
    expect(await series('calls.failed', T9, T9 + 2 * HOUR)).toEqual([1, 0]);
    expect(await series('calls.escalated', T9, T9 + 2 * HOUR)).toEqual([1, 0]);
    expect(await series('calls.in_progress', T9, T9 + 2 * HOUR)).toEqual([0, 1]);
    expect(await series('calls.abandoned', T9, T9 + 2 * HOUR)).toEqual([0, 0]);
  });

  it('gives a success rate of the calls ended, and the mean quality, null where none', async () => {
    const [rate, none] = await series('calls.success_rate', T9, T9 + 2 * HOUR);
    expect(rate).toBeCloseTo(1 / 3, 10);
    expect(none).toBeNull();
    const [quality, unscored] = await series('quality.avg', T9, T9 + 2 * HOUR);
    expect(quality).toBeCloseTo((0.82 + 0.82 + 0.5) / 3, 10);
    expect(unscored).toBeNull();
    expect((await series('quality.avg', T9, T9 + HOUR, { agentId: 'agent_a' }))[0]).toBeCloseTo((0.82 + 0.5) / 2, 10);
  });

  it('buckets from `from`, not from the hour', async () => {
    // 09:30 to 10:30 holds call-3 and call-4; 10:30 to 11:30 nothing.
    expect(await series('calls.total', T9 + HOUR / 2, T9 + 2.5 * HOUR)).toEqual([2, 0]);
  });

  it('counts, averages and ratios the turn rollups per bucket', async () => {
    expect(await series('turns.count', T9, T9 + 2 * HOUR)).toEqual([11, 1]);
    expect(await series('turns.count', T9, T9 + 2 * HOUR, { agentId: 'agent_b' })).toEqual([1, 0]);
    expect(await series('turns.interrupted', T9, T9 + 2 * HOUR)).toEqual([1, 0]);
    const [rate, later] = await series('turns.interruption_rate', T9, T9 + 2 * HOUR);
    expect(rate).toBeCloseTo(1 / 11, 10);
    expect(later).toBe(0);
    const [avg, avgLater] = await series('latency.total_ms.avg', T9, T9 + 2 * HOUR);
    expect(avg).toBeCloseTo(mean(AT_NINE), 10);
    expect(avgLater).toBe(turnMs(1));
  });

  it('reads percentiles from the merged sketches of a bucket', async () => {
    expect(await series('latency.total_ms.p95', T9, T9 + 2 * HOUR)).toEqual([p95(AT_NINE), p95(AT_TEN)]);
    // Within the sketch's 1% of the exact p95: rank 0.95 × 10 of eleven turns, the second slowest (1285 ms).
    const exact = [...AT_NINE].sort((a, b) => a - b)[9] ?? Number.NaN;
    expect(exact).toBe(1_285);
    expect(Math.abs(p95(AT_NINE) - exact) / exact).toBeLessThanOrEqual(0.01);
    expect(await series('latency.total_ms.p95', T9, T9 + HOUR, { agentId: 'agent_b' })).toEqual([p95([turnMs(1)])]);
  });

  it('counts the outcomes and sums their revenue per bucket, per agent', async () => {
    expect(await series('outcomes.count', T9, T9 + 2 * HOUR)).toEqual([2, 1]);
    expect(await series('outcomes.count', T9, T9 + 2 * HOUR, { agentId: 'agent_b' })).toEqual([1, 0]);
    expect(await series('revenue.usd', T9, T9 + 2 * HOUR)).toEqual([150.5, 0]);
  });

  it('counts the events ingested per UTC day', async () => {
    const day = Date.parse('2026-01-07T00:00:00.000Z');
    expect(await series('events.ingested', day, day + 3 * 86_400_000, { intervalMs: 86_400_000 })).toEqual([1, ingestedOnTheEighth, 0]);
  });

  it('answers zero counts and null measures for empty buckets, and another tenant nothing of ours', async () => {
    const empty = [T9 + 3 * HOUR, T9 + 5 * HOUR] as const;
    expect(await series('calls.total', ...empty)).toEqual([0, 0]);
    expect(await series('turns.count', ...empty)).toEqual([0, 0]);
    expect(await series('latency.total_ms.avg', ...empty)).toEqual([null, null]);
    expect(await series('latency.total_ms.p95', ...empty)).toEqual([null, null]);
    expect(await series('turns.interruption_rate', ...empty)).toEqual([null, null]);
    expect(await series('calls.success_rate', ...empty)).toEqual([null, null]);
    const stranger = randomUUID();
    expect(await series('calls.total', T9, T9 + 2 * HOUR, { who: stranger })).toEqual([0, 0]);
    expect(await series('latency.total_ms.p95', T9, T9 + 2 * HOUR, { who: stranger })).toEqual([null, null]);
    expect(await series('outcomes.count', T9, T9 + 2 * HOUR, { who: stranger })).toEqual([0, 0]);
  });

  // Last: it folds the rollups, which the tests above read from minutes.
  it('reads the same series from the hour and day folds once the folder has run', async () => {
    const names: MetricName[] = ['turns.count', 'turns.interruption_rate', 'latency.total_ms.avg', 'latency.total_ms.p95', 'latency.total_ms.p50'];
    const day = Date.parse('2026-01-08T00:00:00.000Z');
    const before = await Promise.all(
      names.flatMap((name) => [series(name, T9, T9 + 2 * HOUR), series(name, day, day + 86_400_000, { intervalMs: 86_400_000 })]),
    );
    expect(await foldTenant(db, tenant, new Date(day + 2 * 86_400_000))).toBeGreaterThan(0);
    const after = await Promise.all(
      names.flatMap((name) => [series(name, T9, T9 + 2 * HOUR), series(name, day, day + 86_400_000, { intervalMs: 86_400_000 })]),
    );
    expect(after).toEqual(before);
    expect(after[6]).toEqual([p95(AT_NINE), p95(AT_TEN)]);
    expect(after[7]).toEqual([p95([...AT_NINE, ...AT_TEN])]);
  });
});
