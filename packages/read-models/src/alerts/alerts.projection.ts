import type { DocumentProjection } from '../projection';
import { latest, minTime, type Register } from '../registers';

interface AlertFacts {
  id: string;
  ruleId: string;
  firedAt: string | null;
  resolvedAt: string | null;
  fired: Register<{
    ruleName: string | null;
    metric: string;
    comparison: string;
    threshold: number;
    value: number;
    windowMs: number;
    severity: string | null;
    agentId: string | null;
    message: string | null;
  }> | null;
  resolved: Register<{ value: number | null; resolution: string | null; resolvedBy: string | null; metric: string | null }> | null;
}

/** One row per alert id: firing, then resolved once a resolution is seen, whatever order the two arrive in. */
export const alerts: DocumentProjection<AlertFacts> = {
  kind: 'document',
  name: 'alerts',
  version: 1,
  table: 'alerts',
  key: ['id'],
  handles: ['alert.fired', 'alert.resolved'],
  facts({ event, stamp }) {
    const at = event.occurred_at;
    if (event.type === 'alert.fired') {
      const d = event.data;
      return {
        key: { id: d.alert_id },
        facts: {
          id: d.alert_id,
          ruleId: d.rule_id,
          firedAt: at,
          resolvedAt: null,
          resolved: null,
          fired: {
            at: stamp,
            value: {
              ruleName: d.rule_name,
              metric: d.metric,
              comparison: d.comparison,
              threshold: d.threshold,
              value: d.value,
              windowMs: d.window_ms,
              severity: d.severity,
              agentId: d.agent_id,
              message: d.message,
            },
          },
        },
      };
    }
    if (event.type === 'alert.resolved') {
      const d = event.data;
      return {
        key: { id: d.alert_id },
        facts: {
          id: d.alert_id,
          ruleId: d.rule_id,
          firedAt: d.fired_at,
          resolvedAt: at,
          fired: null,
          resolved: { at: stamp, value: { value: d.value, resolution: d.resolution, resolvedBy: d.resolved_by, metric: d.metric } },
        },
      };
    }
    return null;
  },
  merge: (a, b) => ({
    id: a.id,
    ruleId: a.ruleId,
    firedAt: minTime(a.firedAt, b.firedAt),
    resolvedAt: minTime(a.resolvedAt, b.resolvedAt),
    fired: latest(a.fired, b.fired),
    resolved: latest(a.resolved, b.resolved),
  }),
  row: (f) => ({
    rule_id: f.ruleId,
    rule_name: f.fired?.value.ruleName ?? null,
    metric: f.fired?.value.metric ?? f.resolved?.value.metric ?? '',
    comparison: f.fired?.value.comparison ?? null,
    threshold: f.fired?.value.threshold ?? null,
    value: f.fired?.value.value ?? null,
    window_ms: f.fired?.value.windowMs ?? null,
    severity: f.fired?.value.severity ?? null,
    agent_id: f.fired?.value.agentId ?? null,
    message: f.fired?.value.message ?? null,
    status: f.resolvedAt !== null ? 'resolved' : 'firing',
    fired_at: f.firedAt ?? f.resolvedAt,
    resolved_at: f.resolvedAt,
    resolved_value: f.resolved?.value.value ?? null,
    resolution: f.resolved?.value.resolution ?? null,
    resolved_by: f.resolved?.value.resolvedBy ?? null,
  }),
};
