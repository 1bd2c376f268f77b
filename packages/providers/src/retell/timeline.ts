import type { CallEvents } from '../envelopes';
import { digest, jsonOrText, msOfSeconds, text } from '../envelopes';
import type { RetellCall, RetellLatencySeries, RetellTimelineItem, RetellUtterance } from './payload';

/** The call's own clock: wall time of a moment `seconds` into the call. */
function wallClock(call: RetellCall, fallback: Date): (seconds: number | null | undefined) => Date {
  const start = call.start_timestamp;
  return (seconds) => (typeof start === 'number' && typeof seconds === 'number' ? new Date(start + seconds * 1000) : fallback);
}

const speakerOf = (role: string) => (role === 'agent' ? 'agent' : 'customer');

/** One transcript.final per utterance, with its word timings; a turn that grows between updates keeps its id and is replaced. */
export function addTranscript(events: CallEvents, call: RetellCall, fallback: Date): void {
  const at = wallClock(call, fallback);
  (call.transcript_object ?? []).forEach((utterance: RetellUtterance, index) => {
    const content = utterance.content ?? '';
    const first = utterance.words?.[0];
    const last = utterance.words?.at(-1);
    events.add(
      'transcript.final',
      `utterance:${index}:${digest(content)}`,
      at(first?.start),
      {
        turn_id: `u${index}`,
        speaker: speakerOf(utterance.role),
        text: content,
        start_ms: msOfSeconds(first?.start),
        end_ms: msOfSeconds(last?.end),
        role: utterance.role,
      },
      utterance,
    );
  });
}

/**
 * Tool calls, their results and node transitions from
 * transcript_with_tool_calls; each is placed at the end of the utterance
 * before it, the nearest time Retell gives.
 */
export function addTimeline(events: CallEvents, call: RetellCall, fallback: Date): void {
  const clock = wallClock(call, fallback);
  let at = clock(0);
  const toolNames = new Map<string, string>();
  (call.transcript_with_tool_calls ?? []).forEach((item: RetellTimelineItem, index) => {
    const spoken = item.words?.at(-1)?.end;
    if (typeof spoken === 'number') at = clock(spoken);
    const id = text(item.tool_call_id);
    switch (item.role) {
      case 'tool_call_invocation':
        if (!id) return;
        toolNames.set(id, item.name ?? 'tool');
        events.add('tool.call.started', `tool:${id}:started`, at, { tool_call_id: id, name: item.name ?? 'tool', arguments: jsonOrText(item.arguments) }, item);
        return;
      case 'tool_call_result': {
        if (!id) return;
        const name = toolNames.get(id) ?? item.name ?? 'tool';
        if (item.successful === false) {
          events.add(
            'tool.call.failed',
            `tool:${id}:result`,
            at,
            { tool_call_id: id, name, error: typeof item.content === 'string' ? item.content : null },
            item,
          );
        } else {
          events.add('tool.call.completed', `tool:${id}:result`, at, { tool_call_id: id, name, result: jsonOrText(item.content) }, item);
        }
        return;
      }
      case 'node_transition':
        events.add(
          'workflow.state.changed',
          `node:${index}`,
          at,
          {
            from_state: item.former_node_name ?? item.former_node_id ?? null,
            to_state: item.new_node_name ?? item.new_node_id ?? 'node',
            node: item.new_node_id ?? null,
            trigger: item.transition_type ?? null,
          },
          item,
        );
        return;
      default:
        // Utterances are the transcript; DTMF digits, SMS and injected context stay in the kept payload.
        return;
    }
  });
}

const part = (series: RetellLatencySeries, index: number, turns: number): number | null => {
  const values = series?.values;
  if (values && values.length === turns) return values[index] ?? null;
  return series?.p50 ?? null;
};
const whole = (value: number | null) => (value === null ? null : Math.max(0, Math.round(value)));

/**
 * One agent turn per end-to-end measurement (Retell tracks one at every
 * change of turn), its parts taken from the component series at the same
 * index when they have one value per turn, else their median. A part Retell
 * did not measure is 0 and named in `unmeasured`. Retell's other series
 * (knowledge base, speech-to-speech, custom LLM round trip) ride along in ms.
 */
export function addTurns(events: CallEvents, call: RetellCall, fallback: Date): void {
  const latency = call.latency;
  const totals = latency?.e2e?.values ?? [];
  if (!latency || totals.length === 0) return;
  const at = wallClock(call, fallback);
  const utterances = call.transcript_object ?? [];
  const answers = utterances.filter((u, i) => u.role === 'agent' && utterances[i - 1]?.role === 'user');
  totals.forEach((total, index) => {
    const parts = {
      asr_ms: whole(part(latency.asr, index, totals.length)),
      llm_ms: whole(part(latency.llm, index, totals.length)),
      tts_ms: whole(part(latency.tts, index, totals.length)),
    };
    const unmeasured = Object.entries(parts).flatMap(([name, value]) => (value === null ? [name] : []));
    const answer = answers.length === totals.length ? answers[index] : undefined;
    const turn = `turn-${String(index + 1).padStart(3, '0')}`;
    events.add('agent.response.generated', turn, at(answer?.words?.[0]?.start), {
      turn_id: turn,
      latency: { asr_ms: parts.asr_ms ?? 0, llm_ms: parts.llm_ms ?? 0, tts_ms: parts.tts_ms ?? 0, total_ms: Math.max(0, Math.round(total)) },
      text: answer?.content ?? null,
      unmeasured,
      knowledge_base_ms: whole(part(latency.knowledge_base, index, totals.length)),
      s2s_ms: whole(part(latency.s2s, index, totals.length)),
      llm_websocket_rtt_ms: whole(part(latency.llm_websocket_network_rtt, index, totals.length)),
    });
  });
}
