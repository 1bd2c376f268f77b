import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@earshot/db';
import { loadMasterKey, rotateWebhookSecret, SecretBox, signBody } from '@earshot/auth';
import { deliveries, envelope, ingestHeaders, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';
import { eventId } from '@earshot/events';

const masterKey = Buffer.alloc(32, 7).toString('base64');

describe('webhook events, limits, rotation and the delivery audit', () => {
  let gateway: TestGateway;
  let acme: TenantCredentials;

  beforeAll(async () => {
    gateway = await startTestGateway('webhooks', {
      env: { EARSHOT_MASTER_KEY: masterKey, EARSHOT_INGEST_REQUESTS_PER_MIN: '5', EARSHOT_INGEST_EVENTS_PER_MIN: '100', EARSHOT_KEY_REQUESTS_PER_MIN: '600' },
    });
    acme = await gateway.createTenant('Acme');
  });
  afterAll(async () => gateway?.stop());

  const flatEvent = (
    credentials: TenantCredentials,
    key: string | undefined,
    body = JSON.stringify({ type: 'call.completed', agent_id: 'support-agent', provider_call_id: 'call_42', latency_ms: 840 }),
  ) => {
    const ts = String(gateway.clock.seconds());
    return gateway.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/events',
      payload: body,
      headers: {
        authorization: `Bearer ${credentials.apiKey}`,
        'content-type': 'application/json',
        'x-timestamp': ts,
        'x-signature': signBody(credentials.webhookSecret, ts, Buffer.from(body)),
        ...(key ? { 'idempotency-key': key } : {}),
      },
    });
  };

  it('creates tenants only for the operator token', async () => {
    const refused = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/admin/tenants',
      headers: { authorization: 'Bearer not-the-admin-token' },
      payload: { name: 'x' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect(acme.apiKey).toMatch(/^ear_live_[0-9A-Za-z]{38}$/);
    expect(acme.webhookSecret).toMatch(/^whsec_/);
    const invalid = await gateway.app.inject({
      method: 'POST',
      url: '/api/v1/admin/tenants',
      headers: { authorization: `Bearer ${'test-admin-token-0123456789'}` },
      payload: { name: '' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields[0].path).toBe('name');
  });

  it('POST /webhooks/events: 200 when accepted, 409 for a repeated Idempotency-Key, 401 for a bad signature', async () => {
    const accepted = await flatEvent(acme, 'flat-1');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ ok: true, id: eventId(acme.tenant.id, 'flat-1') });
    const repeated = await flatEvent(acme, 'flat-1');
    expect(repeated.statusCode).toBe(409);
    expect(repeated.json()).toMatchObject({ ok: false, code: 'IDEMPOTENCY_CONFLICT' });
    const forged = await flatEvent({ ...acme, webhookSecret: 'whsec_wrong' }, 'flat-2');
    expect(forged.statusCode).toBe(401);
  });

  it('verifies both secrets during a rotation, and only the new one after the overlap', async () => {
    const db = openDatabase({ url: gateway.databaseUrl, applicationName: 'test-rotation' });
    try {
      const box = new SecretBox(loadMasterKey({ NODE_ENV: 'test', EARSHOT_MASTER_KEY: masterKey, EARSHOT_DATA_DIR: '.data' }));
      const overlapUntil = new Date(gateway.clock.now().getTime() + 60_000);
      const fresh = await rotateWebhookSecret(db, box, acme.tenant.id, overlapUntil);
      const sendWith = (secret: string, key: string) => {
        const body = JSON.stringify(envelope(key));
        return gateway.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks/ingest',
          payload: body,
          headers: ingestHeaders({ body, credentials: { apiKey: acme.apiKey, webhookSecret: secret }, timestamp: gateway.clock.seconds() }),
        });
      };
      expect((await sendWith(acme.webhookSecret, 'rotation-old')).statusCode).toBe(202);
      expect((await sendWith(fresh, 'rotation-new')).statusCode).toBe(202);
      gateway.clock.advance(61_000);
      expect((await sendWith(acme.webhookSecret, 'rotation-old-2')).statusCode).toBe(401);
      acme = { ...acme, webhookSecret: fresh };
    } finally {
      await db.dispose();
    }
  });

  it('answers 429 with Retry-After and RateLimit headers past the per-tenant request limit', async () => {
    gateway.clock.advance(60_000);
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof flatEvent>> | undefined;
    for (let i = 0; i < 7; i++) {
      const response = await flatEvent(acme, `limit-${i}`);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited = response;
      else expect(response.headers['ratelimit-remaining']).toBe(String(4 - i));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(limited?.json()).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(limited?.headers).toMatchObject({ 'ratelimit-limit': '5', 'ratelimit-remaining': '0' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited?.headers['ratelimit-reset'])).toBeGreaterThan(0);
    gateway.clock.advance(60_000);
    expect((await flatEvent(acme, 'limit-next-window')).statusCode).toBe(200);
  });

  it('records every delivery: accepted, duplicate, rejected, dead-lettered and rate-limited', async () => {
    const outcomes = new Map<string, number>();
    await expect
      .poll(async () => {
        for (const d of await deliveries(gateway)) outcomes.set(`${d.outcome}:${d.http_status}`, d.duration_ms);
        return [...outcomes.keys()].sort();
      })
      .toEqual(expect.arrayContaining(['accepted:200', 'accepted:202', 'duplicate:409', 'rate_limited:429', 'rejected:401']));
    const body = JSON.stringify({ type: 'call.completed', agent_id: 'a' });
    const dead = await flatEvent(acme, 'dead-1', body);
    expect(dead.statusCode).toBe(400);
    await expect.poll(async () => (await deliveries(gateway)).filter((d) => d.outcome === 'dead_lettered').map((d) => d.http_status)).toEqual([400]);
    const accepted = (await deliveries(gateway)).find((d) => d.outcome === 'accepted');
    expect(accepted).toMatchObject({ tenant: acme.tenant.id, event_type: expect.any(String), event_id: expect.any(String) });
  });
});
