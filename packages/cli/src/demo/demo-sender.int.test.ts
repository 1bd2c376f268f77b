import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEvent } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { startTestGateway, TestClock, type TenantCredentials, type TestGateway } from '@earshot/testing';
import { sendDemoTraffic, type DemoTarget } from './demo-sender';
import { generateDemoTraffic } from './demo-traffic';

/** The sender signs with the wall clock, so the gateway reads it too; `offsetMs` moves the gateway's minutes against the wall's. */
class WallClock extends TestClock {
  offsetMs = 0;
  override now = (): Date => new Date(Date.now() + this.offsetMs);
}

async function listen(gateway: TestGateway, credentials: TenantCredentials): Promise<DemoTarget> {
  const address = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return { url: address, apiKey: credentials.apiKey, webhookSecret: credentials.webhookSecret, tenantId: credentials.tenant.id };
}

describe('demo sender against a real gateway', () => {
  let gateway: TestGateway;
  let target: DemoTarget;

  beforeAll(async () => {
    gateway = await startTestGateway('demo-sender', { clock: new WallClock() });
    target = await listen(gateway, await gateway.createTenant('Demo Sender'));
  });
  afterAll(async () => gateway?.stop());

  it('delivers every envelope signed and batched; copies are answered as duplicates and appended once', async () => {
    const traffic = generateDemoTraffic({ seed: 11, calls: 12, now: Date.now() });
    const summary = await sendDemoTraffic(target, traffic, { eventsPerSecond: 5_000 });
    const copies = traffic.deliveries.filter((d) => d.copy).length;
    // This gateway has no query service: outcomes fall back to events, sent after the calls.
    const envelopes = traffic.deliveries.length + traffic.outcomes.length;
    expect(summary.outcomes).toEqual({ recorded: traffic.outcomes.length, via: 'ingest' });
    expect(summary).toMatchObject({ envelopes, deadLettered: 0, duplicates: copies, accepted: envelopes - copies });
    expect(summary.requests).toBeLessThan(envelopes / 2);
    const stored = (await gateway.records(TOPICS.events)).map((r) => decodeEvent(r.value));
    expect(stored).toHaveLength(summary.accepted);
    expect(new Set(stored.map((e) => e.idempotency_key)).size).toBe(stored.length);
    expect(new Set(stored.map((e) => e.provider)).size).toBeGreaterThan(1);
  });
});

describe('demo sender at the limit', () => {
  let gateway: TestGateway;
  let target: DemoTarget;
  const clock = new WallClock();

  beforeAll(async () => {
    gateway = await startTestGateway('demo-sender-limit', { clock, env: { EARSHOT_INGEST_REQUESTS_PER_MIN: '2' } });
    target = await listen(gateway, await gateway.createTenant('Demo Limited'));
  });
  afterAll(async () => gateway?.stop());

  it('waits out a 429 for its Retry-After and sends the same batch again, losing nothing', async () => {
    // The limiter counts fixed one-minute windows of the gateway's clock. Set 50 s into one, the first requests (about a second)
    // fall in it, not in two halves that each pass under the limit, and the 429 is waited out in about 10 s, not up to a minute.
    clock.offsetMs = 50_000 - (Date.now() % 60_000);
    const traffic = generateDemoTraffic({ seed: 12, calls: 2, now: Date.now() });
    const summary = await sendDemoTraffic(target, { ...traffic, outcomes: [] }, { eventsPerSecond: 10_000 });
    expect(summary.rateLimited).toBeGreaterThan(0);
    expect(summary.envelopes).toBe(traffic.deliveries.length);
    expect(summary.accepted + summary.duplicates).toBe(traffic.deliveries.length);
    expect(await gateway.count(TOPICS.events)).toBe(summary.accepted);
  }, 150_000);
});
