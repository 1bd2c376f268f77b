import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@earshot/auth';
import { startEarshot, waitUntilCaughtUp, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { parseExposition, total, type Family } from './prometheus-parser';

const METRICS_TOKEN = 'metrics-scrape-token-0123456789';

/**
 * `GET /metrics` of a live `all` process after real traffic (signed
 * webhooks through the gateway, projected, read back), read by Prometheus's
 * own text-format parser: the series the operator's dashboards need are
 * there and count what happened.
 */
describe('GET /metrics', () => {
  let earshot: TestEarshot;
  let tenant: EarshotTenant;
  let families: Family[];

  const webhook = (key: string) => {
    const body = JSON.stringify({ type: 'call.completed', agent_id: 'support-agent', provider_call_id: `call_${key}`, latency_ms: 840 });
    const ts = String(Math.floor(Date.now() / 1000));
    return fetch(`${earshot.origin}/api/v1/webhooks/events`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${tenant.apiKey}`,
        'content-type': 'application/json',
        'x-timestamp': ts,
        'x-signature': signBody(tenant.webhookSecret, ts, Buffer.from(body)),
        'idempotency-key': key,
      },
    });
  };

  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await fetch(`${earshot.origin}/metrics`, { headers });
    return { response, text: await response.text() };
  };

  beforeAll(async () => {
    earshot = await startEarshot('self-metrics', { env: { EARSHOT_METRICS_TOKEN: METRICS_TOKEN } });
    tenant = await earshot.createTenant();
    for (const key of ['k1', 'k2', 'k3']) expect((await webhook(key)).status).toBe(200);
    expect((await webhook('k1')).status).toBe(409);
    await waitUntilCaughtUp(earshot.runtime.database(), earshot.runtime.log());
    expect((await fetch(`${earshot.origin}/api/v1/calls`, { headers: { authorization: `Bearer ${tenant.apiKey}` } })).status).toBe(200);
    expect((await fetch(`${earshot.origin}/no/such/path/${Date.now()}`)).status).toBe(404);
    const { response, text } = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    families = parseExposition(text);
  }, 120_000);

  afterAll(async () => {
    await earshot?.stop();
  });

  it('wants the metrics token when one is configured', async () => {
    const refused = await scrape();
    expect(refused.response.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect((await scrape({ authorization: 'Bearer not-the-metrics-token-at-all' })).response.status).toBe(401);
  });

  it('counts and times requests by route template and status', () => {
    const ingest = { method: 'POST', route: '/api/v1/webhooks/events' };
    expect(total(families, 'earshot_http_requests_total', { ...ingest, status: '200' })).toBe(3);
    expect(total(families, 'earshot_http_requests_total', { ...ingest, status: '409' })).toBe(1);
    expect(total(families, 'earshot_http_request_duration_seconds_count', { ...ingest, status: '200' })).toBe(3);
    expect(total(families, 'earshot_http_request_duration_seconds_bucket', { ...ingest, status: '200', le: '+Inf' })).toBe(3);
    expect(total(families, 'earshot_http_requests_total', { method: 'GET', route: '/api/v1/calls', status: '200' })).toBe(1);
    // A path no route takes is one series, whatever the path.
    expect(total(families, 'earshot_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    const routes = families.find((f) => f.name === 'earshot_http_requests')?.samples.map((s) => s.labels.route) ?? [];
    expect(routes.some((route) => route?.startsWith('/no/'))).toBe(false);
  });

  it('counts ingest envelopes by outcome and the log appends by topic', () => {
    expect(total(families, 'earshot_ingest_envelopes_total', { outcome: 'accepted' })).toBe(3);
    expect(total(families, 'earshot_ingest_envelopes_total', { outcome: 'duplicate' })).toBe(1);
    expect(total(families, 'earshot_log_appended_records_total', { topic: 'earshot.events' })).toBe(3);
    expect(total(families, 'earshot_log_append_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
    expect(total(families, 'earshot_log_append_duration_seconds_count', { outcome: 'error' })).toBe(0);
  });

  it('counts what the projector applied and how fresh it was', () => {
    expect(total(families, 'earshot_projector_records_total', { outcome: 'applied' })).toBeGreaterThanOrEqual(3);
    expect(total(families, 'earshot_projector_records_total', { outcome: 'dead_lettered' })).toBe(0);
    expect(total(families, 'earshot_projector_records_total', { outcome: 'missing' })).toBe(0);
    expect(total(families, 'earshot_projector_freshness_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(total(families, 'earshot_projector_freshness_seconds_sum')).toBeGreaterThan(0);
  });

  it('reports every partition the projector reads, caught up', async () => {
    const log = earshot.runtime.log();
    const partitions = [...(await log.ends('earshot.events')), ...(await log.ends('earshot.deliveries'))];
    const lagOf = (scraped: typeof families) =>
      scraped.find((f) => f.name === 'earshot_consumer_lag_records')?.samples.filter((s) => s.labels.consumer === 'projector') ?? [];
    const lag = lagOf(families);
    expect(lag.map((s) => `${s.labels.topic}:${s.labels.partition}`).sort()).toEqual(partitions.map((p) => `${p.topic}:${p.partition}`).sort());
    // The projector records a batch in Postgres (what waitUntilCaughtUp reads) just before it commits the offsets the gauge reads.
    const lagging = async () =>
      lagOf(parseExposition((await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })).text))
        .filter((s) => s.value !== 0)
        .map((s) => `${s.labels.topic}:${s.labels.partition}=${s.value}`);
    await expect.poll(lagging, { timeout: 15_000, interval: 250 }).toEqual([]);
    expect(families.some((f) => f.name === 'earshot_consumer_lag_records' && f.samples.some((s) => s.labels.consumer === 'audit'))).toBe(true);
  });

  it('counts key lookups and exports the default process metrics', () => {
    expect(total(families, 'earshot_key_cache_lookups_total', { result: 'miss' })).toBeGreaterThan(0);
    expect(total(families, 'earshot_key_cache_lookups_total', { result: 'hit' })).toBeGreaterThan(0);
    expect(families.find((f) => f.name === 'process_cpu_seconds')?.type).toBe('counter');
    expect(families.find((f) => f.name === 'nodejs_heap_size_total_bytes')?.type).toBe('gauge');
  });
});
