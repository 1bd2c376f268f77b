import type { OtelSpan } from '../spans';
import type { Envelope } from './envelopes';
import { livekitEnvelopes } from './livekit';
import { pipecatEnvelopes } from './pipecat';

/** The frameworks whose spans Earshot reads; the provider its events are received from (and so part of each call's id). */
export type Framework = 'livekit' | 'pipecat';

const LIVEKIT_SPANS: ReadonlySet<string> = new Set(['agent_session', 'agent_turn', 'llm_node', 'tts_node', 'function_tool']);
const PIPECAT_SPANS: ReadonlySet<string> = new Set(['conversation', 'turn', 'stt', 'llm', 'tts']);

/** Which framework made a span: by its tracer's name, else by the names only that framework gives spans; null for anyone else's. */
export function frameworkOf(span: OtelSpan): Framework | null {
  if (span.scope.startsWith('livekit')) return 'livekit';
  if (span.scope.startsWith('pipecat')) return 'pipecat';
  if (LIVEKIT_SPANS.has(span.name)) return 'livekit';
  if (PIPECAT_SPANS.has(span.name) || 'tool.function_name' in span.attributes) return 'pipecat';
  return null;
}

export interface SpanEvents {
  span: OtelSpan;
  framework: Framework;
  envelopes: Envelope[];
}

/**
 * Earshot's events for each span it reads, a pure function of the span
 * alone: a turn's parts arrive in separate spans, batches and orders, and the
 * projector merges them by turn id (the turn span's id, which its children
 * name as their parent). Spans of other tracers, and the frameworks' spans
 * that measure nothing per turn, become nothing.
 */
export function eventsOfSpans(spans: readonly OtelSpan[]): SpanEvents[] {
  return spans.flatMap((span) => {
    const framework = frameworkOf(span);
    if (framework === null) return [];
    const envelopes = framework === 'livekit' ? livekitEnvelopes(span) : pipecatEnvelopes(span);
    return envelopes.length > 0 ? [{ span, framework, envelopes }] : [];
  });
}
