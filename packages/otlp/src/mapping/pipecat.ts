import { STATUS_ERROR, type OtelSpan } from '../spans';
import { callSpan, flag, jsonOf, metadataOf, msOf, number, text, toolCall, transcript, turnPart, type Envelope } from './envelopes';

/**
 * Pipecat's spans (src/pipecat/utils/tracing/), one trace per conversation:
 * `conversation` spans the call; each `turn` carries the user-to-bot latency,
 * the user turn's wait and whether it was interrupted; its children `stt`,
 * `llm` and `tts` carry each service's time to first byte (`metrics.ttfb`),
 * the transcript and the model's output; spans with `tool.*` attributes are
 * function calls. Values are seconds.
 */
export function pipecatEnvelopes(span: OtelSpan): Envelope[] {
  if (text(span, 'tool.function_name') !== null) return pipecatTool(span);
  switch (span.name) {
    case 'conversation':
      return callSpan(span, metadataOf(span, { conversation_id: 'conversation.id' }), null);
    case 'turn': {
      const e2eMs = msOf(number(span, 'turn.user_bot_latency_seconds'));
      return [
        turnPart(span, span.spanId, {
          totalMs: e2eMs,
          e2eMs,
          eouMs: msOf(number(span, 'turn.user_turn_seconds')),
          interrupted: flag(span, 'turn.was_interrupted'),
        }),
      ];
    }
    case 'stt': {
      if (!span.parentSpanId) return [];
      const delayMs = msOf(number(span, 'metrics.ttfb'));
      const final = flag(span, 'is_final') !== false;
      return [
        turnPart(span, span.parentSpanId, { asrMs: delayMs, transcriptionDelayMs: delayMs }),
        ...(final ? transcript(span, span.parentSpanId, 'customer', text(span, 'transcript')) : []),
      ];
    }
    case 'llm': {
      if (!span.parentSpanId) return [];
      const ttftMs = msOf(number(span, 'metrics.ttfb'));
      const output = text(span, 'output');
      return [
        turnPart(span, span.parentSpanId, {
          llmMs: ttftMs,
          llmTtftMs: ttftMs,
          text: output,
          model: text(span, 'gen_ai.request.model'),
          tokensIn: number(span, 'gen_ai.usage.input_tokens'),
          tokensOut: number(span, 'gen_ai.usage.output_tokens'),
        }),
        ...transcript(span, span.parentSpanId, 'agent', output),
      ];
    }
    case 'tts': {
      if (!span.parentSpanId) return [];
      const ttfbMs = msOf(number(span, 'metrics.ttfb'));
      return [turnPart(span, span.parentSpanId, { ttsMs: ttfbMs, ttsTtfbMs: ttfbMs })];
    }
    default:
      return [];
  }
}

function pipecatTool(span: OtelSpan): Envelope[] {
  return toolCall(span, {
    id: text(span, 'tool.call_id') ?? span.spanId,
    name: text(span, 'tool.function_name') ?? 'function',
    arguments: jsonOf(text(span, 'tool.arguments')),
    output: jsonOf(text(span, 'tool.result')),
    failed: text(span, 'tool.result_status') === 'error' || span.statusCode === STATUS_ERROR,
    turnId: span.parentSpanId,
  });
}
