import { connect, type ClientHttp2Session } from 'node:http2';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeEvent } from '@earshot/events';
import { TOPICS } from '@earshot/log';
import { OTLP_MESSAGES } from '@earshot/otlp';
import { ADMIN_TOKEN, deadLetters, deliveries, grpcCall, grpcMessage, startTestGateway, type TenantCredentials, type TestGateway } from '@earshot/testing';

const TRACES = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const METRICS = '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export';
/** What the tenant may send a minute, in spans: the over-limit case sends more in one export. */
const EVENTS_PER_MIN = 400;

const hex = (text: string) => Buffer.from(text, 'hex');
/** A LiveKit session span and one agent turn, as protobuf: trace ids of `traceId`, `spans` more spans Earshot reads nothing from. */
function traceExport(traceId: string, e2eSeconds = 0.9, spans = 0): Uint8Array {
  const nano = (ms: number) => `${Date.parse('2026-03-02T09:59:00Z') + ms}000000`;
  const session = { traceId: hex(traceId), spanId: hex('1111111111111111'), name: 'agent_session', startTimeUnixNano: nano(0), endTimeUnixNano: nano(60_000) };
  const turn = {
    traceId: hex(traceId),
    spanId: hex('2222222222222222'),
    parentSpanId: hex('1111111111111111'),
    name: 'agent_turn',
    startTimeUnixNano: nano(5_000),
    endTimeUnixNano: nano(9_000),
    attributes: [{ key: 'lk.e2e_latency', value: { doubleValue: e2eSeconds } }],
  };
  const others = Array.from({ length: spans }, (_, i) => ({ ...session, spanId: hex((i + 0x100).toString(16).padStart(16, 'a')), name: 'other' }));
  const request = { resourceSpans: [{ scopeSpans: [{ scope: { name: 'livekit-agents' }, spans: [session, turn, ...others] }] }] };
  return OTLP_MESSAGES.traceRequest.encode(OTLP_MESSAGES.traceRequest.fromObject(request)).finish();
}

describe('OTLP/gRPC on the gateway’s own port', () => {
  let gateway: TestGateway;
  let acme: TenantCredentials;
  let session: ClientHttp2Session;

  beforeAll(async () => {
    gateway = await startTestGateway('otlp-grpc', {
      env: { EARSHOT_INGEST_REQUESTS_PER_MIN: '1000', EARSHOT_INGEST_EVENTS_PER_MIN: String(EVENTS_PER_MIN), EARSHOT_KEY_ENVIRONMENTS: 'production' },
    });
    acme = await gateway.createTenant('Acme');
    session = connect(gateway.grpcOrigin);
  });
  afterAll(async () => {
    session?.close();
    await gateway?.stop();
  });

  const exportTraces = (body: Buffer, key = acme.apiKey, headers: Record<string, string> = {}) =>
    grpcCall(session, TRACES, body, { authorization: `Bearer ${key}`, ...headers });
  const eventsOf = async (traceId: string) =>
    (await gateway.records(TOPICS.events)).map((r) => decodeEvent(r.value)).filter((e) => e.idempotency_key.startsWith(`otel:${traceId}:`)).length;

  it('takes an export: grpc-status 0, an empty ExportTraceServiceResponse as a framed message, and the spans’ events appended', async () => {
    const trace = 'a1'.repeat(16);
    const answer = await exportTraces(grpcMessage(traceExport(trace)));
    expect(answer).toMatchObject({ status: 200, grpcStatus: '0', contentType: 'application/grpc+proto' });
    expect(answer.body).toEqual(Buffer.from([0, 0, 0, 0, 0]));
    expect(await eventsOf(trace)).toBeGreaterThan(0);
  });

  it('takes a gzip-compressed message (grpc-encoding: gzip), and answers partial success for a span whose event is invalid', async () => {
    const trace = 'b2'.repeat(16);
    const answer = await exportTraces(grpcMessage(gzipSync(traceExport(trace, -2)), true), acme.apiKey, { 'grpc-encoding': 'gzip' });
    expect(answer.grpcStatus).toBe('0');
    const response = OTLP_MESSAGES.traceResponse.toObject(OTLP_MESSAGES.traceResponse.decode(answer.body.subarray(5)), { longs: String });
    expect(response).toMatchObject({ partialSuccess: { rejectedSpans: '1', errorMessage: expect.stringContaining('span 2222222222222222 (agent_turn)') } });
  });

  it('answers a compression it does not implement UNIMPLEMENTED, with grpc-accept-encoding naming gzip', async () => {
    const trace = 'b3'.repeat(16);
    const answer = await exportTraces(grpcMessage(traceExport(trace), true), acme.apiKey, { 'grpc-encoding': 'snappy' });
    expect(answer).toMatchObject({ status: 200, grpcStatus: '12', grpcMessage: 'grpc-encoding snappy is not supported: compress with gzip or not at all' });
    expect(answer.grpcAcceptEncoding).toBe('gzip');
    expect(await eventsOf(trace)).toBe(0);
  });

  it('answers MetricsService/Export as /v1/metrics does', async () => {
    const request = { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'process.cpu', gauge: { dataPoints: [{ asDouble: 0.2 }] } }] }] }] };
    const message = OTLP_MESSAGES.metricsRequest.encode(OTLP_MESSAGES.metricsRequest.fromObject(request)).finish();
    const answer = await grpcCall(session, METRICS, grpcMessage(message), { authorization: `Bearer ${acme.apiKey}` });
    expect(answer.grpcStatus).toBe('0');
    const response = OTLP_MESSAGES.metricsResponse.toObject(OTLP_MESSAGES.metricsResponse.decode(answer.body.subarray(5)), { longs: String });
    expect(response).toMatchObject({ partialSuccess: { rejectedDataPoints: '1', errorMessage: expect.stringContaining('process.cpu') } });
  });

  it('answers a method it does not serve UNIMPLEMENTED', async () => {
    const answer = await grpcCall(session, '/opentelemetry.proto.collector.logs.v1.LogsService/Export', grpcMessage(Buffer.alloc(0)), {
      authorization: `Bearer ${acme.apiKey}`,
    });
    expect(answer).toMatchObject({ status: 200, grpcStatus: '12', grpcMessage: expect.stringContaining('LogsService/Export') });
  });

  it('refuses hostile frames with the right status, each kept as a dead letter, while a valid export on the same connection goes through', async () => {
    const trace = 'c3'.repeat(16);
    const valid = grpcMessage(traceExport(trace));
    const [truncated, oversized, garbage, twoMessages, ok] = await Promise.all([
      exportTraces(valid.subarray(0, valid.length - 7)),
      exportTraces(Buffer.from([0, 0x7f, 0xff, 0xff, 0xff, 1, 2, 3])),
      exportTraces(grpcMessage(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]))),
      exportTraces(Buffer.concat([valid, valid])),
      exportTraces(valid),
    ]);
    expect(truncated).toMatchObject({ status: 200, grpcStatus: '3', grpcMessage: expect.stringMatching(/truncated: it declares \d+ bytes and \d+ arrived/) });
    expect(oversized).toMatchObject({ status: 200, grpcStatus: '3', grpcMessage: 'the gRPC message declares 2147483647 bytes; at most 16777216 are taken' });
    expect(garbage).toMatchObject({ status: 200, grpcStatus: '3', grpcMessage: expect.stringContaining('not a valid OTLP protobuf message') });
    expect(twoMessages).toMatchObject({ grpcStatus: '3', grpcMessage: expect.stringContaining('more than one gRPC message') });
    expect(ok.grpcStatus).toBe('0');
    expect(await eventsOf(trace)).toBeGreaterThan(0);
    const reasons = (await deadLetters(gateway)).map((d) => d.reason);
    expect(reasons.some((r) => r.startsWith('OTLP traces: the gRPC message is truncated'))).toBe(true);
    expect(reasons.some((r) => r.startsWith('OTLP traces: the gRPC message declares 2147483647 bytes'))).toBe(true);
  });

  it('refuses a body over the limit INVALID_ARGUMENT, saying so', async () => {
    const answer = await exportTraces(grpcMessage(Buffer.alloc(16 * 1024 * 1024 + 1)));
    expect(answer).toMatchObject({ status: 200, grpcStatus: '3', grpcMessage: expect.stringContaining('at most 16777216') });
  });

  describe('access as the OTLP/HTTP route’s policy has it', () => {
    it('no key, an unknown key: UNAUTHENTICATED', async () => {
      const none = await grpcCall(session, TRACES, grpcMessage(traceExport('d4'.repeat(16))), {});
      expect(none).toMatchObject({ status: 200, grpcStatus: '16', grpcMessage: expect.stringContaining('an API key is required') });
      const wrong = await exportTraces(grpcMessage(traceExport('d4'.repeat(16))), `${acme.apiKey.slice(0, -4)}xxxx`);
      expect(wrong.grpcStatus).toBe('16');
      expect(await eventsOf('d4'.repeat(16))).toBe(0);
    });

    it('a key of an environment this deployment refuses, and one without traces:write: PERMISSION_DENIED', async () => {
      const created = await gateway.app.inject({
        method: 'POST',
        url: '/api/v1/admin/tenants',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: 'Staging', environment: 'staging' },
      });
      const staging = await exportTraces(grpcMessage(traceExport('e5'.repeat(16))), created.json<TenantCredentials>().apiKey);
      expect(staging).toMatchObject({ grpcStatus: '7', grpcMessage: expect.stringContaining('this is a staging key') });
      const reader = await gateway.app.inject({
        method: 'POST',
        url: '/api/v1/keys',
        headers: { authorization: `Bearer ${acme.apiKey}` },
        payload: { name: 'reads only', scopes: ['calls:read'] },
      });
      const refused = await exportTraces(grpcMessage(traceExport('e5'.repeat(16))), reader.json<{ secret: string }>().secret);
      expect(refused).toMatchObject({ grpcStatus: '7', grpcMessage: 'the API key lacks the traces:write scope' });
      expect(await eventsOf('e5'.repeat(16))).toBe(0);
    });

    it('a key used from outside its IP allowlist: PERMISSION_DENIED; one inside it is taken', async () => {
      const keyFrom = async (ipAllowlist: string[]) => {
        const created = await gateway.app.inject({
          method: 'POST',
          url: '/api/v1/keys',
          headers: { authorization: `Bearer ${acme.apiKey}` },
          payload: { name: `from ${ipAllowlist.join(' ')}`, scopes: ['traces:write'], ipAllowlist },
        });
        return created.json<{ secret: string }>().secret;
      };
      const elsewhere = await exportTraces(grpcMessage(traceExport('e6'.repeat(16))), await keyFrom(['203.0.113.0/24']));
      expect(elsewhere).toMatchObject({ grpcStatus: '7', grpcMessage: expect.stringContaining('may not be used from 127.0.0.1') });
      expect(await eventsOf('e6'.repeat(16))).toBe(0);
      const local = await exportTraces(grpcMessage(traceExport('e7'.repeat(16))), await keyFrom(['127.0.0.0/8']));
      expect(local.grpcStatus).toBe('0');
    });

    it('an export over the tenant’s spans a minute: RESOURCE_EXHAUSTED with RetryInfo, recorded as rate limited', async () => {
      const answer = await exportTraces(grpcMessage(traceExport('f6'.repeat(16), 0.9, EVENTS_PER_MIN)));
      expect(answer).toMatchObject({ grpcStatus: '8', grpcMessage: expect.stringContaining('rate limit') });
      // google.rpc.Status's details carry a RetryInfo, which is what lets an OTLP exporter retry RESOURCE_EXHAUSTED.
      expect(answer.details?.toString('latin1')).toContain('type.googleapis.com/google.rpc.RetryInfo');
      expect(await eventsOf('f6'.repeat(16))).toBe(0);
      await vi.waitFor(async () => {
        const recorded = await deliveries(gateway);
        expect(recorded.some((d) => d.outcome === 'rate_limited' && d.http_status === 429)).toBe(true);
      });
    });
  });
});
