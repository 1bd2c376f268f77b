import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEvent, eventId } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { deadLetters, envelope, ingestHeaders, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';

const URL = '/api/v1/webhooks/ingest';

describe('POST /api/v1/webhooks/ingest', () => {
  let gateway: TestGateway;
  let acme: TenantCredentials;
  let globex: TenantCredentials;

  beforeAll(async () => {
    gateway = await startTestGateway('ingest', {
      env: { EARSHOT_INGEST_REQUESTS_PER_MIN: '10000', EARSHOT_INGEST_EVENTS_PER_MIN: '100000', EARSHOT_KEY_REQUESTS_PER_MIN: '10000' },
    });
    acme = await gateway.createTenant('Acme');
    globex = await gateway.createTenant('Globex');
  });
  afterAll(async () => gateway?.stop());

  const send = (body: string, options: { credentials?: TenantCredentials; timestamp?: number; signed?: string; provider?: string } = {}) =>
    gateway.app.inject({
      method: 'POST',
      url: URL,
      payload: body,
      headers: ingestHeaders({
        body,
        credentials: options.credentials ?? acme,
        timestamp: options.timestamp ?? gateway.clock.seconds(),
        signed: options.signed,
        provider: options.provider,
      }),
    });

  it('appends a valid envelope, Avro-encoded with its receipt, and answers 202 with its id', async () => {
    const response = await send(JSON.stringify(envelope('accept-1')));
    expect(response.statusCode).toBe(202);
    const id = eventId(acme.tenant.id, 'accept-1');
    expect(response.json()).toEqual({ ok: true, id, duplicate: false });
    expect(response.headers['ratelimit-limit']).toBeDefined();

    const [record] = (await gateway.records(TOPICS.events)).filter((r) => r.headers['event-id'] === id);
    expect(record?.key).toBe(`${acme.tenant.id}:call_7d2b9c`);
    expect(record?.headers).toMatchObject({ type: 'call.started', tenant: acme.tenant.id, 'idempotency-key': 'accept-1' });
    expect(record?.headers['schema-fingerprint']).toMatch(/^[0-9a-f]{16}$/);
    const stored = decodeEvent(record?.value ?? Buffer.alloc(0));
    expect(stored).toMatchObject({
      type: 'call.started',
      tenant: acme.tenant.id,
      provider: 'vapi',
      received_at: gateway.clock.now().toISOString(),
      idempotency_key: 'accept-1',
    });
  });

  it('refuses a body with one byte changed after signing (401) and appends nothing', async () => {
    const signed = JSON.stringify(envelope('tamper-1', { data: { call_type: 'phone' } }));
    const tampered = signed.replace('phone', 'phonE');
    const before = { events: await gateway.count(TOPICS.events), deadLetters: await gateway.count(TOPICS.deadLetters) };
    const response = await send(tampered, { signed });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect({ events: await gateway.count(TOPICS.events), deadLetters: await gateway.count(TOPICS.deadLetters) }).toEqual(before);
  });

  it('refuses a re-serialized body: the signature covers the bytes, not the JSON value', async () => {
    const compact = JSON.stringify(envelope('reserialized-1'));
    const pretty = JSON.stringify(JSON.parse(compact), null, 2);
    const response = await send(pretty, { signed: compact });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });

  it('refuses a timestamp 301 s off either way and accepts 299 s off', async () => {
    const now = gateway.clock.seconds();
    for (const skew of [-301, 301]) {
      const response = await send(JSON.stringify(envelope(`window-${skew}`)), { timestamp: now + skew });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toContain('outside the allowed window');
    }
    for (const skew of [-299, 299]) {
      const response = await send(JSON.stringify(envelope(`window-${skew}`)), { timestamp: now + skew });
      expect(response.statusCode).toBe(202);
    }
  });

  it('refuses a missing signature, a missing key and a key with a bad checksum', async () => {
    const body = JSON.stringify(envelope('auth-1'));
    const headers = ingestHeaders({ body, credentials: acme, timestamp: gateway.clock.seconds() });
    const { 'x-earshot-signature': _dropped, ...unsigned } = headers;
    expect((await gateway.app.inject({ method: 'POST', url: URL, payload: body, headers: unsigned })).statusCode).toBe(401);
    const { authorization: _none, ...anonymous } = headers;
    expect((await gateway.app.inject({ method: 'POST', url: URL, payload: body, headers: anonymous })).json()).toMatchObject({
      ok: false,
      code: 'UNAUTHORIZED',
    });
    const badChecksum = `${acme.apiKey.slice(0, -1)}${acme.apiKey.endsWith('A') ? 'B' : 'A'}`;
    const response = await gateway.app.inject({ method: 'POST', url: URL, payload: body, headers: { ...headers, authorization: `Bearer ${badChecksum}` } });
    expect(response.statusCode).toBe(401);
  });

  it('does not take another tenant’s signature: the key picks the secret', async () => {
    const body = JSON.stringify(envelope('cross-1'));
    const headers = ingestHeaders({ body, credentials: { apiKey: acme.apiKey, webhookSecret: globex.webhookSecret }, timestamp: gateway.clock.seconds() });
    expect((await gateway.app.inject({ method: 'POST', url: URL, payload: body, headers })).statusCode).toBe(401);
  });

  it('answers 50 concurrent copies with one append, the others marked duplicate with the same id', async () => {
    const body = JSON.stringify(envelope('concurrent-1'));
    const before = await gateway.count(TOPICS.events);
    const responses = await Promise.all(Array.from({ length: 50 }, () => send(body)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(202));
    const bodies = responses.map((r) => r.json());
    expect(bodies.filter((b) => b.duplicate === false)).toHaveLength(1);
    expect(new Set(bodies.map((b) => b.id))).toEqual(new Set([eventId(acme.tenant.id, 'concurrent-1')]));
    expect(await gateway.count(TOPICS.events)).toBe(before + 1);
  });

  it('gives a retry 48 hours later, freshly signed, the same answer and appends nothing', async () => {
    const body = JSON.stringify(envelope('late-retry-1'));
    const first = await send(body);
    expect(first.statusCode).toBe(202);
    const before = await gateway.count(TOPICS.events);
    gateway.clock.advance(48 * 3_600_000);
    const retry = await send(body);
    expect(retry.statusCode).toBe(202);
    expect(retry.json()).toEqual({ ...first.json(), duplicate: true });
    expect(await gateway.count(TOPICS.events)).toBe(before);
  });

  it('keeps idempotency keys per tenant: the same key from another tenant is a new event', async () => {
    const body = JSON.stringify(envelope('shared-key'));
    const fromAcme = await send(body);
    const fromGlobex = await send(body, { credentials: globex });
    expect(fromAcme.json().duplicate).toBe(false);
    expect(fromGlobex.json()).toEqual({ ok: true, id: eventId(globex.tenant.id, 'shared-key'), duplicate: false });
    expect(fromGlobex.json().id).not.toBe(fromAcme.json().id);
  });

  it('dead-letters an invalid envelope with the raw body and its reason, answering 400 naming the fields', async () => {
    const body = JSON.stringify(envelope('invalid-1', { version: '1999-01-01', call: { agent_id: 7 } }));
    const response = await send(body);
    expect(response.statusCode).toBe(400);
    const answer = response.json();
    expect(answer).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(answer.fields.map((f: { path: string }) => f.path).sort()).toEqual(['call.agent_id', 'call.provider_call_id', 'version']);
    const letter = (await deadLetters(gateway)).find((d) => d.id === answer.deadLetterId);
    expect(letter).toMatchObject({ tenant: acme.tenant.id, provider: 'vapi', source: 'gateway', event_type: 'call.started', idempotency_key: 'invalid-1' });
    expect(letter?.reason).toContain('version');
    expect(Buffer.from(letter?.body ?? []).toString('utf8')).toBe(body);
  });

  it('dead-letters bodies that hold no envelope: unknown type, not JSON, not an object', async () => {
    for (const body of [JSON.stringify(envelope('unknown-type', { type: 'call.teleported' })), '{"type": "call.started",', '42']) {
      const response = await send(body);
      expect(response.statusCode).toBe(400);
      const letter = (await deadLetters(gateway)).find((d) => d.id === response.json().deadLetterId);
      expect(Buffer.from(letter?.body ?? []).toString('utf8')).toBe(body);
    }
  });

  it('takes a batch: each envelope validated, deduplicated and appended on its own, results in order', async () => {
    const batch = [envelope('batch-1'), envelope('batch-2', { type: 'call.nope' }), envelope('accept-1'), envelope('batch-1')];
    const response = await send(JSON.stringify(batch));
    expect(response.statusCode).toBe(202);
    const { results } = response.json();
    expect(results).toHaveLength(4);
    expect(results[0]).toEqual({ ok: true, id: eventId(acme.tenant.id, 'batch-1'), duplicate: false });
    expect(results[1]).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', fields: [{ path: 'type' }] });
    expect(results[2]).toEqual({ ok: true, id: eventId(acme.tenant.id, 'accept-1'), duplicate: true });
    expect(results[3]).toEqual({ ok: true, id: eventId(acme.tenant.id, 'batch-1'), duplicate: true });
    expect((await deadLetters(gateway)).some((d) => d.id === results[1].deadLetterId && d.reason.includes('envelope 1 of the batch'))).toBe(true);
  });

  it('refuses a batch of more than 500 envelopes, and an empty one, into the dead-letter queue', async () => {
    const tooMany = JSON.stringify(Array.from({ length: 501 }, (_, i) => envelope(`big-${i}`)));
    const response = await send(tooMany);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain('1 to 500');
    expect((await send('[]')).statusCode).toBe(400);
  });

  it('answers 413 to a body over 1 MiB', async () => {
    const huge = JSON.stringify(envelope('huge', { data: { summary: 'x'.repeat(1024 * 1024) } }));
    const response = await send(huge);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ ok: false, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('refuses a missing provider header into the dead-letter queue', async () => {
    const body = JSON.stringify(envelope('no-provider'));
    const headers = ingestHeaders({ body, credentials: acme, timestamp: gateway.clock.seconds() });
    const { 'x-earshot-provider': _gone, ...rest } = headers;
    const response = await gateway.app.inject({ method: 'POST', url: URL, payload: body, headers: rest });
    expect(response.statusCode).toBe(400);
    expect(response.json().deadLetterId).toBeDefined();
  });
});

describe('POST /api/v1/webhooks/ingest without a body', () => {
  it('answers a signed empty request 400 from the dead-letter queue, not 500', async () => {
    const gateway = await startTestGateway('ingest-empty');
    try {
      const acme = await gateway.createTenant();
      const headers = ingestHeaders({ body: '', credentials: acme, timestamp: gateway.clock.seconds() });
      const { 'content-type': _none, ...rest } = headers;
      const response = await gateway.app.inject({ method: 'POST', url: URL, headers: rest });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', deadLetterId: expect.any(String) });
    } finally {
      await gateway.stop();
    }
  });
});
