import { digest, jsonOrText, msOfSeconds, type CallEvents } from '../envelopes';
import type { ElevenLabsTranscriptEntry } from './payload';

/** Which part of a turn an ElevenLabs metric measures, by its name (convai_llm_service_ttfb, convai_tts_service_ttfb, …). */
function partOf(metric: string): 'llm' | 'tts' | 'asr' | null {
  if (metric.includes('llm')) return 'llm';
  if (metric.includes('tts')) return 'tts';
  if (metric.includes('asr') || metric.includes('stt') || metric.includes('transcri')) return 'asr';
  return null;
}

/**
 * An agent turn's latency from its conversation_turn_metrics (elapsed_time in
 * seconds per metric): each part the largest metric naming it, the total
 * their sum; a part with no metric is 0 and named in `unmeasured`. Every
 * metric also rides along in ms.
 */
function turnLatency(entry: ElevenLabsTranscriptEntry) {
  const metrics = Object.entries(entry.conversation_turn_metrics?.metrics ?? {}).map(([name, m]) => [name, msOfSeconds(m.elapsed_time)] as const);
  const parts = { asr: null as number | null, llm: null as number | null, tts: null as number | null };
  for (const [name, value] of metrics) {
    const part = partOf(name);
    if (part && value !== null) parts[part] = Math.max(parts[part] ?? 0, value);
  }
  if (metrics.length === 0) return null;
  const latency = { asr_ms: parts.asr ?? 0, llm_ms: parts.llm ?? 0, tts_ms: parts.tts ?? 0, total_ms: (parts.asr ?? 0) + (parts.llm ?? 0) + (parts.tts ?? 0) };
  const unmeasured = (['asr', 'llm', 'tts'] as const).filter((part) => parts[part] === null).map((part) => `${part}_ms`);
  return { latency, unmeasured, metrics_ms: Object.fromEntries(metrics) };
}

/**
 * The transcript entries: what was said (with its second in the call), the
 * agent's turn latencies, tool calls and results, hand-offs between agents
 * (an entry answered by another agent_id) and transfers to a number.
 */
export function addTranscript(events: CallEvents, transcript: readonly ElevenLabsTranscriptEntry[], start: Date, mainAgent: string): void {
  let agent = mainAgent;
  let turn = 0;
  transcript.forEach((entry, index) => {
    const at = new Date(start.getTime() + (msOfSeconds(entry.time_in_call_secs) ?? 0));
    const said = entry.message ?? '';
    if (said) {
      const speaker = entry.role === 'agent' ? 'agent' : 'customer';
      const startMs = msOfSeconds(entry.time_in_call_secs);
      events.add('transcript.final', `transcript:${index}:${digest(said)}`, at, { turn_id: `e${index}`, speaker, text: said, start_ms: startMs }, entry);
    }
    const timed = entry.role === 'agent' ? turnLatency(entry) : null;
    if (timed) {
      const id = `turn-${String(++turn).padStart(3, '0')}`;
      events.add('agent.response.generated', id, at, { turn_id: id, ...timed, text: said || null, interrupted: entry.interrupted ?? null });
    }
    const answering = entry.agent_metadata?.agent_id;
    if (entry.role === 'agent' && answering && answering !== agent) {
      events.add('handoff.completed', `handoff:${index}`, at, { handoff_id: `handoff:${index}`, target: answering, target_kind: 'agent', reason: null });
      agent = answering;
    }
    for (const call of entry.tool_calls ?? []) {
      const params = jsonOrText(call.params_as_json);
      events.add(
        'tool.call.started',
        `tool:${call.request_id}:started`,
        at,
        { tool_call_id: call.request_id, name: call.tool_name, arguments: params, tool_type: call.type ?? null },
        call,
      );
      if (call.tool_name === 'transfer_to_number') {
        const to = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params.transfer_number ?? params.phone_number) : null;
        events.add('call.transferred', 'call.transferred', at, {
          to: typeof to === 'string' && to ? to : 'unknown',
          reason: call.tool_name,
          transfer_type: call.type ?? null,
        });
      }
    }
    for (const result of entry.tool_results ?? []) {
      const common = { tool_call_id: result.request_id, name: result.tool_name, duration_ms: msOfSeconds(result.tool_latency_secs) };
      if (result.is_error) {
        events.add(
          'tool.call.failed',
          `tool:${result.request_id}:result`,
          at,
          { ...common, error: typeof result.result_value === 'string' ? result.result_value : null },
          result,
        );
      } else {
        events.add('tool.call.completed', `tool:${result.request_id}:result`, at, { ...common, result: jsonOrText(result.result_value) }, result);
      }
    }
  });
}
