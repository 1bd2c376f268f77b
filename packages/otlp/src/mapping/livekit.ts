import { STATUS_ERROR, type OtelSpan } from '../spans';
import { callSpan, flag, jsonOf, metadataOf, msOf, number, text, toolCall, transcript, turnPart, type Envelope } from './envelopes';

/**
 * LiveKit Agents' spans (livekit-agents/livekit/agents/telemetry/trace_types.py),
 * one trace per session: `agent_session` spans the call; each `agent_turn` is
 * a reply, carrying the end-to-end latency, the end-of-turn and transcription
 * delays of the user turn it answers, and whether it was interrupted; its
 * children `llm_node` and `tts_node` carry the model's time to first token (and
 * the reply's text) and the synthesizer's time to first byte, and
 * `function_tool` a tool call.
 * Content is under `lk.pii.*` since 1.7, under `lk.*` before. Values are seconds.
 */
export function livekitEnvelopes(span: OtelSpan): Envelope[] {
  switch (span.name) {
    case 'agent_session':
      return callSpan(
        span,
        metadataOf(span, { room: 'lk.pii.room_name', room_legacy: 'lk.room_name', room_sid: 'lk.room_sid', job_id: 'lk.job_id', agent_name: 'lk.agent_name' }),
        text(span, 'lk.close_reason'),
      );
    case 'agent_turn': {
      const transcriptionDelayMs = msOf(number(span, 'lk.transcription_delay'));
      const e2eMs = msOf(number(span, 'lk.e2e_latency'));
      return [
        turnPart(span, span.spanId, {
          asrMs: transcriptionDelayMs,
          totalMs: e2eMs,
          eouMs: msOf(number(span, 'lk.end_of_turn_delay')),
          transcriptionDelayMs,
          e2eMs,
          interrupted: flag(span, 'lk.interrupted'),
        }),
        ...transcript(span, span.spanId, 'customer', text(span, 'lk.pii.user_input', 'lk.user_input')),
      ];
    }
    case 'llm_node': {
      if (!span.parentSpanId) return [];
      const ttftMs = msOf(number(span, 'lk.response.ttft', 'gen_ai.response.time_to_first_chunk'));
      const said = text(span, 'lk.pii.response.text', 'lk.response.text');
      return [
        turnPart(span, span.parentSpanId, {
          llmMs: ttftMs,
          llmTtftMs: ttftMs,
          text: said,
          model: text(span, 'gen_ai.response.model', 'gen_ai.request.model'),
          tokensIn: number(span, 'gen_ai.usage.input_tokens'),
          tokensOut: number(span, 'gen_ai.usage.output_tokens'),
        }),
        ...transcript(span, span.parentSpanId, 'agent', said),
      ];
    }
    case 'tts_node': {
      if (!span.parentSpanId) return [];
      const ttfbMs = msOf(number(span, 'lk.response.ttfb'));
      return [turnPart(span, span.parentSpanId, { ttsMs: ttfbMs, ttsTtfbMs: ttfbMs })];
    }
    case 'function_tool':
      return toolCall(span, {
        id: text(span, 'lk.function_tool.id', 'gen_ai.tool.call.id') ?? span.spanId,
        name: text(span, 'lk.function_tool.name', 'gen_ai.tool.name') ?? 'function_tool',
        arguments: jsonOf(text(span, 'lk.pii.function_tool.arguments', 'lk.function_tool.arguments')),
        output: jsonOf(text(span, 'lk.pii.function_tool.output', 'lk.function_tool.output')),
        failed: flag(span, 'lk.function_tool.is_error') === true || span.statusCode === STATUS_ERROR,
        turnId: span.parentSpanId,
      });
    default:
      return [];
  }
}
