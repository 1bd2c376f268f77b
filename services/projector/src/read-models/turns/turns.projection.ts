import type { RegisterProjection } from '../projection';

/** One row per agent turn: its latency parts and whether the customer interrupted it; a later report of the same turn (by stamp) replaces it. */
export const turns: RegisterProjection = {
  kind: 'register',
  name: 'turns',
  version: 1,
  table: 'turns',
  key: ['call_id', 'turn_id'],
  handles: ['agent.response.generated'],
  rows({ event, callId, stamp }) {
    if (event.type !== 'agent.response.generated' || !callId) return [];
    const d = event.data;
    return [
      {
        call_id: callId,
        turn_id: d.turn_id,
        agent_id: event.call.agent_id,
        occurred_at: event.occurred_at,
        asr_ms: d.latency.asr_ms,
        llm_ms: d.latency.llm_ms,
        tts_ms: d.latency.tts_ms,
        total_ms: d.latency.total_ms,
        interrupted: d.interrupted ?? false,
        text: d.text,
        model: d.model,
        tokens_in: d.tokens_in,
        tokens_out: d.tokens_out,
        llm_ttft_ms: d.llm_ttft_ms,
        tts_ttfb_ms: d.tts_ttfb_ms,
        eou_delay_ms: d.eou_delay_ms,
        precedence: stamp,
      },
    ];
  },
};
