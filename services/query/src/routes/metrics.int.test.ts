import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '@earshot/contracts';
import { callScript, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

const DAY = Date.parse('2026-02-01T00:00:00Z');

describe('GET /metrics and GET /realtime', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('metrics');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    const now = query.clock.now().getTime();
    await query.project([
      ...callScript({ tenant: acme.id, providerCallId: 'm1', turns: 3, startMs: DAY + 3_600_000 }),
      ...callScript({ tenant: acme.id, providerCallId: 'm2', turns: 3, startMs: DAY + 3_600_000 * 5, ending: 'failed', agentId: 'agent_sales' }),
      ...callScript({ tenant: acme.id, providerCallId: 'm3', turns: 2, startMs: DAY + 86_400_000 + 60_000, outcome: true }),
      ...callScript({ tenant: acme.id, providerCallId: 'live-done', turns: 2, startMs: now - 5 * 60_000 }),
      ...callScript({ tenant: acme.id, providerCallId: 'live-now', turns: 2, startMs: now - 60_000 }).filter(
        (e) => !['call.ended', 'call.completed', 'recording.available', 'audio.stream.stopped'].includes(e.type),
      ),
      ...callScript({ tenant: globex.id, providerCallId: 'g1', turns: 1, startMs: DAY + 3_600_000 }),
    ]);
  });
  afterAll(async () => query?.stop());

  const series = async (tenant: QueryTenant, params: string) =>
    (await query.get(`/metrics?from=2026-02-01T00:00:00Z&to=2026-02-03T00:00:00Z&${params}`, tenant.apiKey)).json();

  it('lists the catalogue: every metric name with its description and unit', async () => {
    const catalogue = (await query.get('/metrics/catalogue', acme.apiKey)).json();
    expect(catalogue.ok).toBe(true);
    expect(catalogue.items.map((m: { name: string }) => m.name)).toEqual([...METRIC_NAMES]);
    expect(catalogue.items).toContainEqual({ name: 'latency.total_ms.p95', description: expect.stringContaining('p95'), unit: 'ms' });
    const unscoped = await query.createKey(acme.id, { scopes: ['calls:read'] });
    expect((await query.get('/metrics/catalogue', unscoped)).statusCode).toBe(403);
  });

  it('counts calls by status per bucket, and the success rate', async () => {
    const total = await series(acme, 'name=calls.total&interval=1d');
    expect(total).toMatchObject({
      ok: true,
      name: 'calls.total',
      unit: 'calls',
      interval: '1d',
      points: [
        { t: '2026-02-01T00:00:00.000Z', value: 2 },
        { t: '2026-02-02T00:00:00.000Z', value: 1 },
      ],
    });
    expect((await series(acme, 'name=calls.failed&interval=1d')).points.map((p: { value: number }) => p.value)).toEqual([1, 0]);
    expect((await series(acme, 'name=calls.success_rate&interval=1d')).points.map((p: { value: number }) => p.value)).toEqual([0.5, 1]);
    expect((await series(acme, 'name=calls.total&interval=1d&agentId=agent_sales')).points.map((p: { value: number }) => p.value)).toEqual([1, 0]);
    expect((await series(globex, 'name=calls.total&interval=1d')).points.map((p: { value: number }) => p.value)).toEqual([1, 0]);
  });

  it('answers latency percentiles per part from the merged sketches, within 1%', async () => {
    const p50 = await series(acme, 'name=latency.total_ms.p50&interval=1d');
    const p99 = await series(acme, 'name=latency.total_ms.p99&interval=1d');
    expect(p50.unit).toBe('ms');
    // callScript's turn n has total 600 + (n * 137) % 900: 737, 874, 1011 for turns 1 to 3.
    expect(p50.points[0].value).toBeGreaterThanOrEqual(865);
    expect(p50.points[0].value).toBeLessThanOrEqual(883);
    expect(p99.points[0].value).toBeGreaterThanOrEqual(1000);
    expect(p99.points[0].value).toBeLessThanOrEqual(1022);
    expect((await series(acme, 'name=latency.asr_ms.p95&interval=1h')).points).toHaveLength(48);
    expect((await series(acme, 'name=outcomes.count&interval=1d')).points.map((p: { value: number }) => p.value)).toEqual([0, 1]);
  });

  it('answers 400 listing the valid names for an unknown one; a reversed range has no points, a too fine one its last 1,000', async () => {
    const unknown = await query.get('/metrics?name=vibes', acme.apiKey);
    expect(unknown.statusCode).toBe(400);
    // The name is an enum of the contract, so the OpenAPI document lists the same names the route takes.
    expect(unknown.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ path: 'query.name', message: expect.stringContaining('calls.transferred') }] });
    expect((await query.get('/metrics?name=calls.total&from=2026-02-02T00:00:00Z&to=2026-02-01T00:00:00Z', acme.apiKey)).json()).toMatchObject({
      ok: true,
      points: [],
    });
    const fine = (await query.get('/metrics?name=calls.total&from=2025-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&interval=1m', acme.apiKey)).json();
    expect(fine).toMatchObject({ ok: true, from: '2026-01-31T07:20:00.000Z', to: '2026-02-01T00:00:00.000Z' });
    expect(fine.points).toHaveLength(1_000);
    expect(
      (await query.get('/metrics?name=events.ingested&interval=1d&agentId=agent_sales', acme.apiKey))
        .json()
        .points.every((p: { value: unknown }) => p.value === null),
    ).toBe(true);
    expect((await query.get('/metrics', acme.apiKey)).json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ path: 'query.name' }] });
  });

  it('gives the live snapshot over the last 15 minutes', async () => {
    const live = (await query.get('/realtime', acme.apiKey)).json();
    expect(live).toMatchObject({ ok: true, live: { concurrentCalls: 1, endedCalls: 1, successRate: 1, windowSeconds: 900 } });
    expect(live.live.p95LatencyMs).toBeGreaterThan(600);
    expect((await query.get('/realtime', globex.apiKey)).json().live).toMatchObject({ concurrentCalls: 0, endedCalls: 0, p95LatencyMs: 0 });
  });
});
