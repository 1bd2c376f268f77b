import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeEvent } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { OTLP_MESSAGES } from '@earshot/otlp';
import { deadLetters, deliveries, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';

const TRACE = '5b8efff798038103d269b633813fc60c';
const SESSION = 'eee19b7ec3c1b174';
const TURN = 'a1b2c3d4e5f60718';
const LLM = '0102030405060708';

type Attribute = { key: string; value: Record<string, unknown> };
const attr = (key: string, value: string | number | boolean): Attribute => ({
  key,
  value: typeof value === 'string' ? { stringValue: value } : typeof value === 'boolean' ? { boolValue: value } : { doubleValue: value },
});

/** A span as OTLP/JSON writes it (hex ids, nanosecond strings). */
function span(spanId: string, name: string, startMs: number, endMs: number, attributes: Attribute[], parentSpanId?: string) {
  return {
    traceId: TRACE,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name,
    startTimeUnixNano: `${startMs}000000`,
    endTimeUnixNano: `${endMs}000000`,
    attributes,
  };
}

const T0 = Date.parse('2026-03-02T09:59:00Z');
/** A LiveKit-shaped session with one turn: the session, the agent turn and its model call. */
function livekitRequest(e2eSeconds = 1.24) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'support-agent')] },
        scopeSpans: [
          {
            scope: { name: 'livekit-agents' },
            spans: [
              span(SESSION, 'agent_session', T0, T0 + 60_000, [attr('lk.room_sid', 'RM_7xQ')]),
              span(TURN, 'agent_turn', T0 + 5_000, T0 + 9_000, [attr('lk.e2e_latency', e2eSeconds), attr('lk.interrupted', false)], SESSION),
              span(LLM, 'llm_node', T0 + 5_400, T0 + 6_000, [attr('lk.response.ttft', 0.39)], TURN),
            ],
          },
        ],
      },
    ],
  };
}

/** The same request as protobuf, through the generated code: ids as bytes. */
function protobufOf(request: ReturnType<typeof livekitRequest>): Buffer {
  const withBytes = JSON.parse(JSON.stringify(request), (key, value: unknown) =>
    ['traceId', 'spanId', 'parentSpanId'].includes(key) && typeof value === 'string' ? Buffer.from(value, 'hex') : value,
  ) as Record<string, unknown>;
  return Buffer.from(OTLP_MESSAGES.traceRequest.encode(OTLP_MESSAGES.traceRequest.fromObject(withBytes)).finish());
}

describe('OTLP/HTTP at the service root', () => {
  let gateway: TestGateway;
  let acme: TenantCredentials;

  beforeAll(async () => {
    gateway = await startTestGateway('otlp', { env: { EARSHOT_INGEST_REQUESTS_PER_MIN: '1000', EARSHOT_INGEST_EVENTS_PER_MIN: '100000' } });
    acme = await gateway.createTenant('Acme');
  });
  afterAll(async () => gateway?.stop());

  const post = (path: string, body: Buffer | string, headers: Record<string, string>, key = acme.apiKey) =>
    gateway.app.inject({ method: 'POST', url: path, payload: body, headers: { authorization: `Bearer ${key}`, ...headers } });
  const events = async () => (await gateway.records(TOPICS.events)).map((r) => decodeEvent(r.value));

  it('takes a protobuf export, answers an empty ExportTraceServiceResponse, and appends the spans’ events', async () => {
    const response = await post('/v1/traces', protobufOf(livekitRequest()), { 'content-type': 'application/x-protobuf' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-protobuf');
    expect(response.rawPayload.length).toBe(0);
    const written = await events();
    expect(written.map((e) => `${e.type}:${e.idempotency_key}`).sort()).toEqual(
      [
        `agent.response.generated:otel:${TRACE}:${LLM}:turn`,
        `agent.response.generated:otel:${TRACE}:${TURN}:turn`,
        `call.ended:otel:${TRACE}:${SESSION}:call.ended`,
        `call.started:otel:${TRACE}:${SESSION}:call.started`,
      ].sort(),
    );
    expect(written.every((e) => e.provider === 'livekit' && e.call?.agent_id === 'support-agent' && e.call.provider_call_id === TRACE)).toBe(true);
    const turn = written.find((e) => e.idempotency_key.endsWith(`${TURN}:turn`));
    expect(turn?.data).toMatchObject({ turn_id: TURN, e2e_ms: 1240, interrupted: false, latency: { total_ms: 1240, llm_ms: null } });
    expect(turn?.version).toBe('2026-11-24');
  });

  it('takes the same spans again, gzipped JSON, as duplicates: nothing new is written', async () => {
    const before = await gateway.count(TOPICS.events);
    const response = await post('/v1/traces', gzipSync(JSON.stringify(livekitRequest())), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
    expect(await gateway.count(TOPICS.events)).toBe(before);
    await vi.waitFor(async () => {
      const recorded = (await deliveries(gateway)).filter((d) => d.idempotency_key?.startsWith(`otel:${TRACE}`) && d.outcome === 'duplicate');
      expect(recorded).toHaveLength(4);
    });
  });

  it('answers partial success for a span whose event is invalid, keeps it as a dead letter and takes the rest', async () => {
    const request = livekitRequest(-2);
    for (const s of request.resourceSpans[0]?.scopeSpans[0]?.spans ?? []) s.traceId = 'aa'.repeat(16);
    const response = await post('/v1/traces', JSON.stringify(request), { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ partialSuccess: { rejectedSpans: number; errorMessage: string } }>();
    expect(body.partialSuccess.rejectedSpans).toBe(1);
    expect(body.partialSuccess.errorMessage).toMatch(/span a1b2c3d4e5f60718 \(agent_turn\).*data\.(latency\.total_ms|e2e_ms)/);
    const written = (await events()).filter((e) => e.call?.provider_call_id === 'aa'.repeat(16));
    expect(written.map((e) => e.type).sort()).toEqual(['agent.response.generated', 'call.ended', 'call.started']);
    expect((await deadLetters(gateway)).some((d) => d.reason.includes('agent_turn'))).toBe(true);
  });

  describe('bad requests get OTLP’s error answer and write nothing', () => {
    const unchanged = async (send: () => ReturnType<typeof post>, status: number) => {
      const before = await gateway.count(TOPICS.events);
      const response = await send();
      expect(response.statusCode).toBe(status);
      expect(await gateway.count(TOPICS.events)).toBe(before);
      return response;
    };

    it('a content type OTLP does not use', async () => {
      const response = await unchanged(() => post('/v1/traces', JSON.stringify(livekitRequest()), { 'content-type': 'text/plain' }), 400);
      expect(response.headers['content-type']).toContain('application/x-protobuf');
    });

    it('a body that is not protobuf, kept as a dead letter', async () => {
      const response = await unchanged(
        () => post('/v1/traces', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), { 'content-type': 'application/x-protobuf' }),
        400,
      );
      expect(response.headers['content-type']).toContain('application/x-protobuf');
      expect((await deadLetters(gateway)).some((d) => d.reason.startsWith('OTLP traces: the body is not a valid OTLP protobuf message'))).toBe(true);
    });

    it('spans without ids, in JSON: a google.rpc.Status naming them', async () => {
      const request = livekitRequest();
      const first = request.resourceSpans[0]?.scopeSpans[0]?.spans[0];
      if (first) first.spanId = '';
      const response = await unchanged(() => post('/v1/traces', JSON.stringify(request), { 'content-type': 'application/json' }), 400);
      expect(response.json()).toMatchObject({
        code: 3,
        message: expect.stringContaining('resourceSpans.0.scopeSpans.0.spans.0.spanId'),
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'VALIDATION_ERROR', domain: 'earshot' }],
      });
    });

    it('a million attributes, gzipped', async () => {
      const attributes = Array.from({ length: 1_000_000 }, () => ({ key: 'k' }));
      const spans = [{ traceId: Buffer.from(TRACE, 'hex'), spanId: Buffer.from(SESSION, 'hex'), name: 'agent_session', attributes }];
      const message = OTLP_MESSAGES.traceRequest.fromObject({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
      const body = gzipSync(OTLP_MESSAGES.traceRequest.encode(message).finish());
      const response = await unchanged(() => post('/v1/traces', body, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }), 400);
      expect(response.headers['content-type']).toContain('application/x-protobuf');
      expect((await deadLetters(gateway)).some((d) => d.reason.includes('has 1000000 attributes; at most 1024'))).toBe(true);
    });

    it('a content encoding other than gzip: 415, naming the one it takes', async () => {
      const response = await unchanged(
        () => post('/v1/traces', JSON.stringify(livekitRequest()), { 'content-type': 'application/json', 'content-encoding': 'br' }),
        415,
      );
      expect(response.headers['accept-encoding']).toBe('gzip');
      expect(response.json()).toMatchObject({ code: 12, message: 'Content-Encoding br is not supported: send gzip or none' });
    });

    it('no key, and a key without traces:write', async () => {
      const none = await unchanged(() => post('/v1/traces', JSON.stringify(livekitRequest()), { 'content-type': 'application/json' }, ''), 401);
      expect(none.json()).toMatchObject({ code: 16, details: [{ reason: 'UNAUTHORIZED' }] });
      const created = await gateway.app.inject({
        method: 'POST',
        url: '/api/v1/keys',
        headers: { authorization: `Bearer ${acme.apiKey}` },
        payload: { name: 'reads only', scopes: ['calls:read'] },
      });
      const reader = created.json<{ secret: string }>().secret;
      const refused = await unchanged(() => post('/v1/traces', JSON.stringify(livekitRequest()), { 'content-type': 'application/json' }, reader), 403);
      expect(refused.json()).toMatchObject({ code: 7, message: 'the API key lacks the traces:write scope' });
    });
  });

  it('acknowledges lk.agents.turn.* metrics without storing them, and rejects other metrics’ data points', async () => {
    const request = {
      resourceMetrics: [
        {
          scopeMetrics: [
            {
              metrics: [
                { name: 'lk.agents.turn.e2e_latency', histogram: { dataPoints: [{ count: '3', sum: 2.1 }] } },
                { name: 'process.cpu', gauge: { dataPoints: [{ asDouble: 0.2 }, { asDouble: 0.3 }] } },
              ],
            },
          ],
        },
      ],
    };
    const response = await post('/v1/metrics', JSON.stringify(request), { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ partialSuccess: { rejectedDataPoints: 2, errorMessage: expect.stringContaining('process.cpu') } });
  });
});
