import { CURRENT_EVENT_VERSION, type IncomingEventInput, type ProviderEventType } from '@earshot/contracts';
import type { OtelSpan } from '../spans';
import type { AttributeValue } from '../wire/otlp-request';

/** What a span becomes: envelopes for the intake, each under a key made of the trace, the span and its role, so a re-export is a duplicate. */
export type Envelope = IncomingEventInput;
type DataOf<T extends ProviderEventType> = Extract<IncomingEventInput, { type: T }>['data'];

/** The agent a span's process ran: the resource's service.name (OTEL_SERVICE_NAME), the one thing every span of a trace carries alike. */
function agentOf(span: OtelSpan): string {
  const name = span.resource['service.name'];
  return typeof name === 'string' && name !== '' ? name : 'unknown_service';
}

/** An envelope about the span's call (its trace), at `atMs`. */
function envelope<T extends ProviderEventType>(
  span: OtelSpan,
  type: T,
  role: string,
  atMs: number,
  data: DataOf<T>,
  call: { metadata?: Record<string, string> } = {},
): Envelope {
  return {
    type,
    version: CURRENT_EVENT_VERSION,
    idempotency_key: `otel:${span.traceId}:${span.spanId}:${role}`,
    occurred_at: new Date(atMs).toISOString(),
    call: { provider_call_id: span.traceId, agent_id: agentOf(span), ...call },
    data,
  } as Envelope;
}

export function text(span: OtelSpan, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = span.attributes[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

export function number(span: OtelSpan, ...keys: string[]): number | null {
  for (const key of keys) {
    const value = span.attributes[key];
    if (typeof value === 'number') return value;
  }
  return null;
}

export function flag(span: OtelSpan, key: string): boolean | null {
  const value = span.attributes[key];
  return typeof value === 'boolean' ? value : null;
}

/** Seconds (how both frameworks report durations) as whole milliseconds; what does not fit an event is left for its validation to name. */
export function msOf(seconds: number | null): number | null {
  return seconds === null ? null : Math.round(seconds * 1000);
}

/** JSON text as the value it holds (tool arguments and results), else the text itself. */
export function jsonOf(value: string | null): AttributeValue {
  if (value === null) return null;
  try {
    return JSON.parse(value) as AttributeValue;
  } catch {
    return value;
  }
}

/** Plain string attributes of the call, for its metadata (room, job, conversation ids). */
export function metadataOf(span: OtelSpan, keys: Readonly<Record<string, string>>): Record<string, string> | undefined {
  const entries = Object.entries(keys).flatMap(([name, key]) => {
    const value = span.attributes[key];
    return typeof value === 'string' || typeof value === 'number' ? [[name, String(value)] as const] : [];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** The call's start and end from the span that spans it (the session or conversation). */
export function callSpan(span: OtelSpan, metadata: Record<string, string> | undefined, endedReason: string | null): Envelope[] {
  const call = metadata ? { metadata } : {};
  return [
    envelope(span, 'call.started', 'call.started', span.startMs, {}, call),
    envelope(span, 'call.ended', 'call.ended', span.endMs, { duration_ms: Math.max(0, span.endMs - span.startMs), ended_reason: endedReason }, call),
  ];
}

interface TurnPart {
  asrMs?: number | null;
  llmMs?: number | null;
  ttsMs?: number | null;
  totalMs?: number | null;
  eouMs?: number | null;
  transcriptionDelayMs?: number | null;
  e2eMs?: number | null;
  llmTtftMs?: number | null;
  ttsTtfbMs?: number | null;
  interrupted?: boolean | null;
  text?: string | null;
  model?: string | null;
  tokensIn?: number | null;
  tokensOut?: number | null;
}

/** What one span measured of a turn: the intake's agent.response.generated, version 2026-11-24, carrying only those parts. */
export function turnPart(span: OtelSpan, turnId: string, p: TurnPart): Envelope {
  return envelope(span, 'agent.response.generated', 'turn', span.startMs, {
    turn_id: turnId,
    latency: { asr_ms: p.asrMs ?? null, llm_ms: p.llmMs ?? null, tts_ms: p.ttsMs ?? null, total_ms: p.totalMs ?? null },
    text: p.text ?? null,
    model: p.model ?? null,
    tokens_in: p.tokensIn ?? null,
    tokens_out: p.tokensOut ?? null,
    llm_ttft_ms: p.llmTtftMs ?? null,
    tts_ttfb_ms: p.ttsTtfbMs ?? null,
    eou_delay_ms: p.eouMs ?? null,
    interrupted: p.interrupted ?? null,
    transcription_delay_ms: p.transcriptionDelayMs ?? null,
    e2e_ms: p.e2eMs ?? null,
    unattributed_ms: null,
  });
}

export function transcript(span: OtelSpan, turnId: string, speaker: 'agent' | 'customer', said: string | null, confidence: number | null = null): Envelope[] {
  if (said === null) return [];
  return [envelope(span, 'transcript.final', `transcript.${speaker}`, span.startMs, { turn_id: turnId, speaker, text: said, confidence })];
}

/** A tool span: its start, and how it ended (failed when the framework flagged an error or the span's status is ERROR). */
export function toolCall(
  span: OtelSpan,
  tool: { id: string; name: string; arguments: AttributeValue; output: AttributeValue; failed: boolean; turnId: string | null },
): Envelope[] {
  const common = { tool_call_id: tool.id, name: tool.name, arguments: tool.arguments, turn_id: tool.turnId };
  const durationMs = Math.max(0, span.endMs - span.startMs);
  const ended = tool.failed
    ? envelope(span, 'tool.call.failed', 'tool.ended', span.endMs, {
        ...common,
        error: typeof tool.output === 'string' ? tool.output : (span.statusMessage ?? JSON.stringify(tool.output)),
        duration_ms: durationMs,
      })
    : envelope(span, 'tool.call.completed', 'tool.ended', span.endMs, { ...common, result: tool.output, duration_ms: durationMs });
  return [envelope(span, 'tool.call.started', 'tool.started', span.startMs, common), ended];
}
