import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '@earshot/auth';
import { startEarshot, waitUntilCaughtUp, type TestEarshot } from '@earshot/testing';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a request's trace (continued from
 * the caller's `traceparent`) reaches a real OTLP receiver with its append
 * to the log and the projector's batch that applied it, each the child of
 * the one before.
 */
describe('traces of the request → append → projection path', () => {
  let receiver: OtlpReceiver;
  let earshot: TestEarshot;
  const traceId = randomBytes(16).toString('hex');
  const callerSpanId = randomBytes(8).toString('hex');
  let trace: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    earshot = await startEarshot('self-traces', { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
    const tenant = await earshot.createTenant();
    const body = JSON.stringify({ type: 'call.completed', agent_id: 'support-agent', provider_call_id: 'call_traced', latency_ms: 840 });
    const ts = String(Math.floor(Date.now() / 1000));
    const response = await fetch(`${earshot.origin}/api/v1/webhooks/events`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${tenant.apiKey}`,
        'content-type': 'application/json',
        'x-timestamp': ts,
        'x-signature': signBody(tenant.webhookSecret, ts, Buffer.from(body)),
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
    });
    expect(response.status).toBe(200);
    await waitUntilCaughtUp(earshot.runtime.database(), earshot.runtime.log());
    const projected = () => receiver.spans.some((span) => span.traceId === traceId && isProjection(span));
    while (!projected()) await sleep(100);
    trace = receiver.spans.filter((span) => span.traceId === traceId);
  }, 120_000);

  afterAll(async () => {
    await earshot?.stop();
    receiver?.stop();
  });

  const isProjection = (span: ReceivedSpan) =>
    span.name === 'earshot.log process earshot.events' && span.attributes['messaging.consumer.group.name'] === 'projector';

  const one = (name: string) => {
    const found = trace.filter((span) => span.name === name);
    expect(found, name).toHaveLength(1);
    return found[0] as ReceivedSpan;
  };

  it('continues the caller trace in a server span named by route template', () => {
    const server = one('POST /api/v1/webhooks/events');
    expect(server).toMatchObject({ kind: 'SPAN_KIND_SERVER', parentSpanId: callerSpanId, service: 'earshot', status: 'STATUS_CODE_UNSET' });
    expect(server.attributes).toMatchObject({ 'http.route': '/api/v1/webhooks/events', 'http.response.status_code': '200', 'http.request.method': 'POST' });
  });

  it('makes the append a child of the request', () => {
    const server = one('POST /api/v1/webhooks/events');
    const appends = trace.filter((span) => span.name === 'earshot.log append');
    expect(appends.length).toBeGreaterThan(0);
    for (const append of appends) expect(append).toMatchObject({ kind: 'SPAN_KIND_PRODUCER', parentSpanId: server.spanId });
  });

  it('makes the projector batch a child of the append that carried the event', () => {
    const appendIds = trace.filter((span) => span.name === 'earshot.log append').map((span) => span.spanId);
    const projections = trace.filter(isProjection);
    expect(projections).toHaveLength(1);
    expect(projections[0]).toMatchObject({ kind: 'SPAN_KIND_CONSUMER', attributes: { 'messaging.batch.message_count': '1' } });
    expect(appendIds).toContain(projections[0]?.parentSpanId);
  });
});
