import type { DocumentProjection } from '../projection';
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
  row(f) {
    return {
      agent_id: f.agentId?.value ?? '',
      occurred_at: f.occurredAt,
      asr_ms: f.asrMs?.value ?? null,
      llm_ms: f.llmMs?.value ?? null,
      tts_ms: f.ttsMs?.value ?? null,
      total_ms: f.totalMs?.value ?? null,
      interrupted: f.interrupted?.value ?? false,
      text: f.text?.value ?? null,
      model: f.model?.value ?? null,
      tokens_in: f.tokensIn?.value ?? null,
      tokens_out: f.tokensOut?.value ?? null,
      llm_ttft_ms: f.llmTtftMs?.value ?? null,
      tts_ttfb_ms: f.ttsTtfbMs?.value ?? null,
      eou_delay_ms: f.eouDelayMs?.value ?? null,
      transcription_delay_ms: f.transcriptionDelayMs?.value ?? null,
      e2e_ms: f.e2eMs?.value ?? null,
      unattributed_ms: unattributedMs(f),
    };
  },
};
