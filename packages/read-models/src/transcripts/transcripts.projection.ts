import type { RegisterProjection } from '../projection';

/**
 * One segment per call, turn and speaker. A final segment always wins over a
 * partial one whatever the order, so a partial is never stored as final;
 * among segments of the same kind the latest (by stamp) wins. Its text is
 * kept as it came, sealed when ingest sealed it: the query service opens it
 * for the tenant reading the call.
 */
export const transcripts: RegisterProjection = {
  kind: 'register',
  name: 'transcripts',
  version: 1,
  table: 'transcripts',
  key: ['call_id', 'turn_id', 'speaker'],
  handles: ['transcript.partial', 'transcript.final'],
  rows({ event, callId, stamp }) {
    if ((event.type !== 'transcript.final' && event.type !== 'transcript.partial') || !callId) return [];
    const d = event.data;
    const final = event.type === 'transcript.final';
    return [
      {
        call_id: callId,
        turn_id: d.turn_id,
        speaker: d.speaker,
        is_final: final,
        text: d.text,
        start_ms: d.start_ms,
        end_ms: d.end_ms,
        confidence: d.confidence,
        language: d.language,
        occurred_at: event.occurred_at,
        precedence: `${final ? 1 : 0}|${stamp}`,
      },
    ];
  },
};
