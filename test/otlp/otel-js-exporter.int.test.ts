import { context, trace, type Span, type Tracer } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { expectSessionReadBack, sessionStart, turns, type Turn } from './voice-session';

type Attributes = Record<string, string | number | boolean>;

/** A span under `parent`, begun and ended at the times given (ms since the epoch), as the framework's clock put them. */
function span(tracer: Tracer, name: string, parent: Span | null, startMs: number, endMs: number, attributes: Attributes): void {
  const at = parent ? trace.setSpan(context.active(), parent) : context.active();
  tracer.startSpan(name, { startTime: startMs, attributes }, at).end(endMs);
}

/** A LiveKit Agents session as its telemetry records one: agent_session, then per turn user_turn, agent_turn and its nodes. */
function livekitSession(tracer: Tracer, startMs: number, session: readonly Turn[]): Span {
  let at = startMs;
  const root = tracer.startSpan('agent_session', { startTime: at, attributes: { 'lk.room_sid': 'RM_js', 'lk.agent_name': 'support' } });
  session.forEach((turn, n) => {
    at += 4_000;
    span(tracer, 'user_turn', root, at, at + 1_500, {
      'lk.pii.user_transcript': turn.user,
      'lk.transcription_delay': turn.stt,
      'lk.end_of_turn_delay': turn.eou,
    });
    at += 1_500;
    const reply = tracer.startSpan(
      'agent_turn',
      {
        startTime: at,
        attributes: {
          'lk.generation_id': `gen_${n}`,
          'lk.pii.user_input': turn.user,
          'lk.e2e_latency': turn.e2e,
          'lk.end_of_turn_delay': turn.eou,
          'lk.transcription_delay': turn.stt,
          'lk.interrupted': turn.interrupted,
        },
      },
      trace.setSpan(context.active(), root),
    );
    span(tracer, 'llm_node', reply, at + 10, at + 800, {
      'lk.response.ttft': turn.ttft,
      'lk.pii.response.text': turn.agent,
      'gen_ai.request.model': 'gpt-4o-mini',
    });
    span(tracer, 'tts_node', reply, at + 400, at + 2_500, { 'lk.response.ttfb': turn.ttfb, 'lk.pii.input_text': turn.agent });
    if (turn.tool) {
      span(tracer, 'function_tool', reply, at + 820, at + 1_100, {
        'lk.function_tool.id': turn.tool.id,
        'lk.function_tool.name': turn.tool.name,
        'lk.pii.function_tool.arguments': JSON.stringify(turn.tool.arguments),
        'lk.pii.function_tool.output': JSON.stringify(turn.tool.output),
        'lk.function_tool.is_error': false,
      });
    }
    reply.end(at + 3_000);
    at += 3_000;
  });
  root.end(at + 1_000);
  return root;
}

function exported(exporter: OTLPTraceExporter, spans: ReadableSpan[]): Promise<void> {
  return new Promise((resolve, reject) =>
    exporter.export(spans, (result) =>
      result.code === ExportResultCode.SUCCESS ? resolve() : reject(result.error ?? new Error(`the exporter could not send ${spans.length} spans`)),
    ),
  );
}

describe('the official OTLP/HTTP JSON exporter of OpenTelemetry JS sending LiveKit-shaped traces', () => {
  let earshot: TestEarshot;
  let tenant: EarshotTenant;

  beforeAll(async () => {
    earshot = await startEarshot('otlp-js');
    tenant = await earshot.createTenant();
  });
  afterAll(async () => earshot?.stop());

  it('lists the call with its five turns as the spans said, the spans sent newest first in batches of three, one batch twice', async () => {
    const service = 'livekit-js-support';
    const recorded = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': service }),
      spanProcessors: [new SimpleSpanProcessor(recorded)],
    });
    const expected = turns(3);
    const startMs = sessionStart(3);
    const root = livekitSession(provider.getTracer('livekit-agents'), startMs, expected);

    const spans = [...recorded.getFinishedSpans()].reverse();
    const exporter = new OTLPTraceExporter({ url: new URL('/v1/traces', earshot.origin).href, headers: { authorization: `Bearer ${tenant.apiKey}` } });
    const batches = Array.from({ length: Math.ceil(spans.length / 3) }, (_, i) => spans.slice(i * 3, i * 3 + 3));
    for (const batch of [...batches, ...batches.slice(2, 3)]) await exported(exporter, batch);
    await exporter.shutdown();
    expect(batches.length).toBeGreaterThan(3);

    await expectSessionReadBack({
      origin: earshot.origin,
      apiKey: tenant.apiKey,
      service,
      framework: 'livekit',
      traceId: root.spanContext().traceId,
      startMs,
      turns: expected,
    });
  });
});
