import type { RegisterProjection } from '../projection';

/** One row per outcome id: recording an outcome again upserts it, the latest (by stamp) wins. */
export const outcomes: RegisterProjection = {
  kind: 'register',
  name: 'outcomes',
  version: 1,
  table: 'outcomes',
  key: ['id'],
  handles: ['outcome.recorded'],
  rows({ event, stamp }) {
    if (event.type !== 'outcome.recorded') return [];
    const d = event.data;
    return [
      {
        id: d.outcome_id,
        call_id: d.call_id,
        agent: d.agent,
        type: d.outcome_type,
        value: d.value,
        source: d.source,
        revenue_usd: d.revenue_usd,
        recorded_at: event.occurred_at,
        precedence: stamp,
      },
    ];
  },
};
