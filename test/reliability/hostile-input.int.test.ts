import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '@earshot/contracts';
import { envelope, ingestHeaders, recordFigure, startEarshot, waitUntilCaughtUp, type EarshotTenant, type TestEarshot } from '@earshot/testing';

const REQUEST_TIMEOUT_MS = 1_500;
const INGEST = '/api/v1/webhooks/ingest';

/** JSON nested `depth` levels deep, as text (JSON.stringify of such a value would itself overflow). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * The hostile inputs of issue #20, sent over real HTTP to `earshot serve`
 * on Kafka and PostgreSQL: each once answered 500, 503 or 202-then-lost;
 * each is now a 4xx in the Error shape, and the valid envelopes beside it
 * are kept.
 */
describe('hostile input against a running Earshot', () => {
  let earshot: TestEarshot;
  let acme: EarshotTenant;

  beforeAll(async () => {
    earshot = await startEarshot('hostile-input', {
      env: { EARSHOT_HTTP_HEADERS_TIMEOUT_MS: '1000', EARSHOT_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
    });
    acme = await earshot.createTenant('Acme');
  });
  afterAll(async () => earshot?.stop());

  const ingest = (body: string, contentType = 'application/json') =>
    fetch(`${earshot.origin}${INGEST}`, {
      method: 'POST',
      body,
      headers: { ...ingestHeaders({ body, credentials: acme, timestamp: Math.floor(Date.now() / 1000) }), 'content-type': contentType },
    });
  const calls = async () => {
    await waitUntilCaughtUp(earshot.runtime.database(), earshot.runtime.log());
    const response = await fetch(`${earshot.origin}/api/v1/calls?limit=100`, { headers: { authorization: `Bearer ${acme.apiKey}` } });
    return ((await response.json()) as { items: { providerCallId: string }[] }).items.map((call) => call.providerCallId);
  };

  it('refuses a NUL in provider_call_id with 400 naming it, dead-lettered, instead of 202 and a stopped projector', async () => {
    const response = await ingest(JSON.stringify(envelope('nul-call', { call: { provider_call_id: 'call\u0000x', agent_id: 'a', direction: 'inbound' } })));
    expect(response.status).toBe(400);
    const answer = ErrorBodySchema.parse(await response.json());
    expect(answer).toMatchObject({ code: 'VALIDATION_ERROR', deadLetterId: expect.any(String) });
    expect(answer.fields?.map((field) => field.path)).toContain('call.provider_call_id');
  });

  it('answers a batch with a 5,000-deep item per envelope: the valid ones kept, the deep one dead-lettered, no 500', async ({ task }) => {
    const first = JSON.stringify(envelope('deep-batch-1', { call: { provider_call_id: 'call_deep_1', agent_id: 'a', direction: 'inbound' } }));
    const last = JSON.stringify(envelope('deep-batch-3', { call: { provider_call_id: 'call_deep_3', agent_id: 'a', direction: 'inbound' } }));
    const response = await ingest(`[${first},${nested(5_000)},${last}]`);
    expect(response.status).toBe(202);
    const { results } = (await response.json()) as { results: { ok: boolean; code?: string; deadLetterId?: string }[] };
    expect(results.map((result) => result.ok)).toEqual([true, false, true]);
    expect(results[1]).toMatchObject({ code: 'VALIDATION_ERROR', deadLetterId: expect.any(String) });
    const projected = await calls();
    expect(projected).toEqual(expect.arrayContaining(['call_deep_1', 'call_deep_3']));
    recordFigure(task, `2 of 3 envelopes kept beside a 5,000-deep item`);
  });

  it('refuses unknown fields nested 2,000 deep or over 16 KiB, which were stored and broke readers of the export', async () => {
    for (const extra of [JSON.parse(nested(31)) as unknown, { blob: 'x'.repeat(20_000) }]) {
      const response = await ingest(JSON.stringify(envelope(`unknown-${JSON.stringify(extra).length}`, { data: { call_type: 'phone', extra } })));
      expect(response.status).toBe(400);
      expect(ErrorBodySchema.parse(await response.json())).toMatchObject({ code: 'VALIDATION_ERROR', deadLetterId: expect.any(String) });
    }
    const deep = await ingest(`{"type":"call.started","version":"2026-01-01","idempotency_key":"deep-2000","extra":${nested(2_000)}}`);
    expect(deep.status).toBe(400);
  });

  it('answers a signed text/plain body 415 in the Error shape instead of taking it as JSON', async () => {
    const response = await ingest(JSON.stringify(envelope('as-text')), 'text/plain');
    expect(response.status).toBe(415);
    expect(ErrorBodySchema.parse(await response.json())).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('refuses revenueUsd -1e308 on POST /outcomes, naming the field, and takes a billion', async () => {
    const post = (revenueUsd: number) =>
      fetch(`${earshot.origin}/api/v1/outcomes`, {
        method: 'POST',
        body: JSON.stringify({ callId: 'call-1', type: 'refund', revenueUsd }),
        headers: { authorization: `Bearer ${acme.apiKey}`, 'content-type': 'application/json' },
      });
    const refused = await post(-1e308);
    expect(refused.status).toBe(400);
    expect(ErrorBodySchema.parse(await refused.json()).fields?.map((field) => field.path)).toEqual(['body.revenueUsd']);
    expect((await post(-1_000_000_000)).status).toBe(201);
  });

  it('refuses a NUL in a GraphQL argument (a GraphQL escape, not a JSON one) as a coded VALIDATION_ERROR, not a 500', async () => {
    const response = await fetch(`${earshot.origin}/graphql`, {
      method: 'POST',
      body: JSON.stringify({ query: '{ outcomes(callId: "call\\u0000x") { items { id } } }' }),
      headers: { authorization: `Bearer ${acme.apiKey}`, 'content-type': 'application/json' },
    });
    expect(response.status).toBeLessThan(500);
    const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(answer.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
  });

  it('cuts a body that stalls off with 408 within the configured request timeout (it was held open past 420 s)', async ({ task }) => {
    const { hostname, port } = new URL(earshot.origin);
    const socket = connect(Number(port), hostname);
    const started = performance.now();
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.write(
      `POST ${INGEST} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acme.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":`,
    );
    const afterMs = await new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now() - started)));
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(afterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
    recordFigure(task, `a stalled body closed with 408 after ${Math.round(afterMs)} ms`);
  });
});
