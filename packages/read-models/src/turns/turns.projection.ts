import type { DocumentProjection } from '../projection';
import { valuesOf } from '../registers';
import { mergeTurnFacts, turnFactsOf, unattributedMs, type TurnFacts } from './turn-facts';

/**
 * One row per agent turn: its latency parts, its stage breakdown and whether
 * the customer interrupted it, merged part by part from every report of the
 * turn, so parts arriving in any order and twice give the same row.
 */
export const turns: DocumentProjection<TurnFacts> = {
  kind: 'document',
  name: 'turns',
  version: 2,
  table: 'turns',
  key: ['call_id', 'turn_id'],
  handles: ['agent.response.generated'],
  facts(projected) {
    const { event, callId } = projected;
    const facts = turnFactsOf(projected);
    if (!facts || !callId || event.type !== 'agent.response.generated') return null;
    return { key: { call_id: callId, turn_id: event.data.turn_id }, facts };
  },
  merge: mergeTurnFacts,
  row(facts) {
    const f = valuesOf(facts);
    return {
      agent_id: f.agentId ?? '',
      occurred_at: facts.occurredAt,
      asr_ms: f.asrMs,
      llm_ms: f.llmMs,
      tts_ms: f.ttsMs,
      total_ms: f.totalMs,
      interrupted: f.interrupted ?? false,
      text: f.text,
      model: f.model,
      tokens_in: f.tokensIn,
      tokens_out: f.tokensOut,
      llm_ttft_ms: f.llmTtftMs,
      tts_ttfb_ms: f.ttsTtfbMs,
      eou_delay_ms: f.eouDelayMs,
      transcription_delay_ms: f.transcriptionDelayMs,
      e2e_ms: f.e2eMs,
      unattributed_ms: unattributedMs(f),
    };
  },
};
