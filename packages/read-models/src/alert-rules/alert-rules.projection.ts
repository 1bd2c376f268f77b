import type { RegisterProjection } from '../projection';

/** One row per rule id, the whole rule as its latest change (by stamp) left it; a deleted rule stays, marked deleted, so its alerts keep their name. */
export const alertRules: RegisterProjection = {
  kind: 'register',
  name: 'alert-rules',
  version: 1,
  table: 'alert_rules',
  key: ['id'],
  handles: ['alert.rule.changed'],
  rows({ event, stamp }) {
    if (event.type !== 'alert.rule.changed') return [];
    const d = event.data;
    return [
      {
        id: d.rule_id,
        name: d.name,
        metric: d.metric,
        agent_id: d.agent_id,
        comparison: d.comparison,
        threshold: d.threshold,
        window_ms: d.window_ms,
        for_ms: d.for_ms,
        severity: d.severity,
        enabled: d.enabled,
        description: d.description,
        deleted: d.action === 'deleted',
        changed_by: d.changed_by,
        changed_at: event.occurred_at,
        precedence: stamp,
      },
    ];
  },
};
