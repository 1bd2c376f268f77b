import type { AlertRule } from '@earshot/contracts';

/** Where a rule stood after its last evaluation. */
export interface RuleState {
  breachingSince: Date | null;
  /** The alert firing now, if any. */
  alertId: string | null;
  incidentId: string | null;
}

export type Decision =
  { action: 'none'; state: RuleState } | { action: 'fire'; state: RuleState; breachingSince: Date } | { action: 'resolve'; state: RuleState; alertId: string };

function breaches(rule: Pick<AlertRule, 'comparison' | 'threshold'>, value: number | null): boolean {
  if (value === null) return false;
  switch (rule.comparison) {
    case 'gt':
      return value > rule.threshold;
    case 'gte':
      return value >= rule.threshold;
    case 'lt':
      return value < rule.threshold;
    case 'lte':
      return value <= rule.threshold;
    default: {
      const unknown: never = rule.comparison;
      throw new Error(`unknown comparison ${String(unknown)}`);
    }
  }
}

/**
 * Pure: what one evaluation does. A breach starts the clock; once it has held
 * for the rule's `forMs` the alert fires (once); the first evaluation that
 * does not breach resolves a firing alert and stops the clock.
 */
export function decide(rule: Pick<AlertRule, 'comparison' | 'threshold' | 'forMs'>, value: number | null, state: RuleState, now: Date): Decision {
  if (!breaches(rule, value)) {
    const cleared = { ...state, breachingSince: null, alertId: null };
    return state.alertId === null ? { action: 'none', state: cleared } : { action: 'resolve', state: cleared, alertId: state.alertId };
  }
  const breachingSince = state.breachingSince ?? now;
  if (state.alertId !== null || now.getTime() - breachingSince.getTime() < rule.forMs) return { action: 'none', state: { ...state, breachingSince } };
  return { action: 'fire', state: { ...state, breachingSince }, breachingSince };
}
