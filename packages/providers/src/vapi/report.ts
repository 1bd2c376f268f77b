import type { MappingContext } from '../delivery';
import { asJson, digest, jsonOrText, ms, text, timeOf, type CallEvents } from '../envelopes';
import type { VapiMessage, VapiServerMessage } from './payload';

const speakerOf = (role: string | null | undefined) => (role === 'user' ? 'customer' : 'agent');
const SPOKEN: ReadonlySet<string> = new Set(['user', 'bot', 'assistant']);

/** The key and turn id of an utterance: its place in artifact.messages, which live transcripts share (see transcript). */
export function utteranceKey(turnId: string, role: string, words: string): string {
  return `transcript:${turnId}:${speakerOf(role)}:${digest(words)}`;
}

/** End reasons that say something broke (Vapi's `…-error-…`, `…-failed`, `…fault…`), not that someone hung up. */
function failedReason(reason: string | null | undefined): boolean {
  return !!reason && /error|failed|fault/.test(reason);
}

function addMessages(events: CallEvents, messages: readonly VapiMessage[], fallback: Date): void {
  messages.forEach((message, index) => {
    const at = timeOf(message.time, 'ms', fallback);
    if (SPOKEN.has(message.role) && message.message) {
      const start = ms((message.secondsFromStart ?? NaN) * 1000);
      const span = typeof message.endTime === 'number' && typeof message.time === 'number' ? message.endTime - message.time : null;
      events.add(
        'transcript.final',
        utteranceKey(`m${index}`, message.role, message.message),
        at,
        {
          turn_id: `m${index}`,
          speaker: speakerOf(message.role),
          text: message.message,
          start_ms: start,
          end_ms: start !== null && span !== null ? ms(start + span) : null,
        },
        message,
      );
    }
    for (const call of message.toolCalls ?? []) {
      if (!call.id) continue;
      const name = call.function?.name ?? 'tool';
      events.add('tool.call.started', `tool:${call.id}:started`, at, { tool_call_id: call.id, name, arguments: jsonOrText(call.function?.arguments) }, call);
    }
    if (message.role === 'tool_call_result' && message.toolCallId) {
      events.add(
        'tool.call.completed',
        `tool:${message.toolCallId}:result`,
        at,
        { tool_call_id: message.toolCallId, name: message.name ?? 'tool', result: jsonOrText(message.result) },
        message,
      );
    }
  });
}

/**
 * performanceMetrics.turnLatencies, one agent turn each: transcriber, model
 * and voice latency as ASR, LLM and TTS, endpointing as the end-of-utterance
 * delay, turnLatency as the total.
 */
function addTurns(events: CallEvents, message: VapiServerMessage, fallback: Date): void {
  const latencies = message.artifact?.performanceMetrics?.turnLatencies ?? [];
  const messages = message.artifact?.messages ?? [];
  const answers = messages.filter((m, i) => (m.role === 'bot' || m.role === 'assistant') && messages.slice(0, i).some((p) => p.role === 'user'));
  latencies.forEach((turn, index) => {
    const parts = { asr: ms(turn.transcriberLatency) ?? 0, llm: ms(turn.modelLatency) ?? 0, tts: ms(turn.voiceLatency) ?? 0 };
    const eou = ms(turn.endpointingLatency);
    const answer = answers.length === latencies.length ? answers[index] : undefined;
    const id = `turn-${String(index + 1).padStart(3, '0')}`;
    events.add(
      'agent.response.generated',
      id,
      timeOf(answer?.time, 'ms', fallback),
      {
        turn_id: id,
        latency: { asr_ms: parts.asr, llm_ms: parts.llm, tts_ms: parts.tts, total_ms: ms(turn.turnLatency) ?? parts.asr + parts.llm + parts.tts + (eou ?? 0) },
        text: answer?.message ?? null,
        eou_delay_ms: eou,
      },
      turn,
    );
  });
}

/** end-of-call-report: the call's start and end, transcript, tool calls, turn latencies, recordings, cost, and analysis as outcomes. */
export function addReport(events: CallEvents, message: VapiServerMessage, context: MappingContext): void {
  const startedAt = timeOf(message.startedAt ?? message.call?.startedAt, 'iso', context.receivedAt);
  const endedAt = timeOf(message.endedAt ?? message.call?.endedAt, 'iso', timeOf(message.timestamp, 'ms', context.receivedAt));
  const duration = message.startedAt && message.endedAt ? ms(endedAt.getTime() - startedAt.getTime()) : null;
  const reason = message.endedReason ?? null;
  const artifact = message.artifact;
  const recording = artifact?.recording?.mono?.combinedUrl ?? artifact?.recordingUrl ?? null;
  const analysis = message.analysis;
  const raw = analysis?.successEvaluation;
  // Vapi sends its rubric's verdict as text: "true", "false", a score, a grade.
  const evaluation = raw === undefined || raw === null ? null : typeof raw === 'string' ? raw : JSON.stringify(raw);
  const verdict = evaluation?.toLowerCase() ?? '';

  if (message.startedAt) events.add('call.started', 'call.started', startedAt, { call_type: message.call?.type ?? null });
  events.add('call.ended', 'call.ended', endedAt, { ended_reason: reason, duration_ms: duration, cost_usd: message.cost ?? null });
  if (failedReason(reason)) events.add('call.failed', 'call.failed', endedAt, { error_code: reason, message: null, stage: 'call' });
  const forwardedTo = text(message.destination?.number) ?? text(message.destination?.sipUri);
  if (forwardedTo) events.add('call.transferred', 'call.transferred', endedAt, { to: forwardedTo, reason, transfer_type: message.destination?.type ?? null });
  addMessages(events, artifact?.messages ?? [], endedAt);
  addTurns(events, message, endedAt);
  for (const [kind, url] of [
    ['recording', recording],
    ['stereo', artifact?.recording?.stereoUrl ?? artifact?.stereoRecordingUrl ?? null],
  ] as const) {
    if (url)
      events.add('recording.available', `recording:${kind}`, endedAt, {
        recording_id: `${message.call?.id}:${kind}`,
        url,
        duration_ms: duration,
        channels: kind === 'stereo' ? 2 : 1,
      });
  }
  events.add('call.completed', 'call.completed', endedAt, {
    duration_ms: duration,
    ended_reason: reason,
    success: verdict === 'true' || verdict === 'pass' ? true : verdict === 'false' || verdict === 'fail' ? false : null,
    summary: analysis?.summary ?? null,
    cost_usd: message.cost ?? null,
    recording_url: recording,
    structured_data: asJson(analysis?.structuredData),
    costs: asJson(message.costs),
    success_evaluation: evaluation,
  });
  events.outcome(context.tenantId, 'success_evaluation', evaluation, endedAt);
  const structured = analysis?.structuredData;
  if (structured && typeof structured === 'object' && !Array.isArray(structured)) {
    for (const [name, value] of Object.entries(structured)) events.outcome(context.tenantId, `structured.${name}`, value, endedAt);
  }
}
