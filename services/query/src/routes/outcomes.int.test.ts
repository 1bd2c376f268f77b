import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '@earshot/idempotency';
import { startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

/** Reads until `found` holds: the projector makes a write readable shortly after its 201. */
async function eventually<T>(read: () => Promise<T>, found: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (found(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET/POST /outcomes', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('outcomes');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
  });
  afterAll(async () => query?.stop());

  const list = async (tenant: QueryTenant, path = '/outcomes') => (await query.get(path, tenant.apiKey)).json();

  it('records an outcome through the log (201 { ok, id }) and lists it once the projector has applied it', async () => {
    const response = await query.post('/outcomes', acme.apiKey, {
      callId: 'call-1',
      type: 'booking',
      value: 'table for 2',
      revenueUsd: 42.5,
      agent: 'agent_support',
    });
    expect(response.statusCode).toBe(201);
    const { ok, id } = response.json();
    expect(ok).toBe(true);
    const page = await eventually(
      () => list(acme),
      (p) => p.items.length === 1,
    );
    expect(page).toMatchObject({ ok: true, source: 'postgres:outcomes', nextCursor: null });
    expect(page.items[0]).toMatchObject({
      id,
      callId: 'call-1',
      type: 'booking',
      value: 'table for 2',
      revenueUsd: 42.5,
      agent: 'agent_support',
      source: null,
    });
  });

  it('upserts by id: a second write of the same id replaces the first', async () => {
    await query.post('/outcomes', acme.apiKey, { id: 'out-upsert', callId: 'call-2', type: 'lead' });
    await eventually(
      () => list(acme, '/outcomes?callId=call-2'),
      (p) => p.items.length === 1,
    );
    // The later write wins by its time; at the very same millisecond the tie is broken by event key, not arrival.
    query.clock.advance(1_000);
    await query.post('/outcomes', acme.apiKey, { id: 'out-upsert', callId: 'call-2', type: 'sale', revenueUsd: 10 });
    const page = await eventually(
      () => list(acme, '/outcomes?callId=call-2'),
      (p) => p.items[0]?.type === 'sale',
    );
    expect(page.items).toHaveLength(1);
  });

  it('replays the first answer for the same Idempotency-Key and body, appending nothing more', async () => {
    const body = { callId: 'call-3', type: 'booking' };
    const first = await query.post('/outcomes', acme.apiKey, body, 'key-same');
    const again = await query.post('/outcomes', acme.apiKey, body, 'key-same');
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    await eventually(
      () => list(acme, '/outcomes?callId=call-3'),
      (p) => p.items.length === 1,
    );
    const audit = (await query.get('/audit?action=outcome.recorded', acme.apiKey)).json();
    expect(audit.items.filter((e: { target: string }) => e.target === first.json().id)).toHaveLength(1);
  });

  it('answers 409 IDEMPOTENCY_MISMATCH for the same key with another body (the status the spec gives a duplicate key), and keys are per tenant', async () => {
    await query.post('/outcomes', acme.apiKey, { callId: 'call-4', type: 'booking' }, 'key-reused');
    const other = await query.post('/outcomes', acme.apiKey, { callId: 'call-4', type: 'refund' }, 'key-reused');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ ok: false, code: 'IDEMPOTENCY_MISMATCH' });
    const globexSameKey = await query.post('/outcomes', globex.apiKey, { callId: 'call-4', type: 'refund' }, 'key-reused');
    expect(globexSameKey.statusCode).toBe(201);
  });

  it('answers 409 IDEMPOTENCY_CONFLICT while the first request with the key is still in flight', async () => {
    const store = new IdempotencyStore(query.db, { scope: 'api', retentionMs: 86_400_000, now: query.clock.now });
    await store.claim([{ tenantId: acme.id, key: 'key-in-flight', requestHash: Buffer.alloc(32) }]);
    const response = await query.post('/outcomes', acme.apiKey, { callId: 'call-5', type: 'booking' }, 'key-in-flight');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ ok: false, code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('refuses a body without callId or type, with unknown fields, or not JSON (400 VALIDATION_ERROR naming the field)', async () => {
    const missing = await query.post('/outcomes', acme.apiKey, { type: 'booking' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', fields: [{ path: 'body.callId' }] });
    expect((await query.post('/outcomes', acme.apiKey, { callId: 'c', type: 't', colour: 'red' })).statusCode).toBe(400);
    const notJson = await query.app.inject({
      method: 'POST',
      url: '/api/v1/outcomes',
      payload: '{"callId":',
      headers: { authorization: `Bearer ${acme.apiKey}`, 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().code).toBe('VALIDATION_ERROR');
  });

  it('records who wrote it in the audit log: key id and name, action, target, address, request id', async () => {
    const response = await query.post('/outcomes', acme.apiKey, { callId: 'call-6', type: 'booking' });
    const audit = (await query.get('/audit', acme.apiKey)).json();
    const entry = audit.items.find((e: { target: string }) => e.target === response.json().id);
    expect(entry).toMatchObject({
      action: 'outcome.recorded',
      actor: { kind: 'apiKey', keyName: 'default', keyId: expect.any(String) },
      ip: '127.0.0.1',
      requestId: response.headers['x-request-id'],
    });
  });

  it('shows each tenant only its own outcomes, whatever callId is asked for', async () => {
    await query.post('/outcomes', globex.apiKey, { callId: 'call-1', type: 'globex-only' });
    await eventually(
      () => list(globex, '/outcomes?callId=call-1'),
      (p) => p.items.length === 1,
    );
    const acmeView = await list(acme, '/outcomes?callId=call-1');
    expect(acmeView.items.map((o: { type: string }) => o.type)).toEqual(['booking']);
    const page = await list(acme, '/outcomes?limit=2');
    expect(page.items).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
  });
});
