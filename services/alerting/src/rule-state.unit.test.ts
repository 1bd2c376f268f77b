import { describe, expect, it } from 'vitest';
import { decide, type RuleState } from './rule-state';

const rule = { comparison: 'gt' as const, threshold: 1_200, forMs: 300_000 };
const idle: RuleState = { breachingSince: null, alertId: null, incidentId: null };
const at = (minute: number) => new Date(Date.UTC(2026, 0, 8, 9, minute));

describe('decide', () => {
  it('fires only once the breach has held for forMs, then stays quiet while it holds', () => {
    const first = decide(rule, 1_500, idle, at(0));
    expect(first.action).toBe('none');
    expect(decide(rule, 1_500, first.state, at(4)).action).toBe('none');
    const fired = decide(rule, 1_500, first.state, at(5));
    expect(fired).toMatchObject({ action: 'fire', breachingSince: at(0) });
    expect(decide(rule, 1_500, { ...fired.state, alertId: 'a' }, at(6)).action).toBe('none');
  });

  it('fires at the first breach when forMs is 0, and resolves at the first evaluation without one', () => {
    const fired = decide({ ...rule, forMs: 0 }, 1_201, idle, at(0));
    expect(fired.action).toBe('fire');
    const resolved = decide(rule, 900, { ...fired.state, alertId: 'a', incidentId: 'i' }, at(1));
    expect(resolved).toMatchObject({ action: 'resolve', alertId: 'a', state: { breachingSince: null, alertId: null, incidentId: 'i' } });
  });

  it('a breach that stops before forMs starts over; no data is no breach', () => {
    const started = decide(rule, 1_500, idle, at(0));
    expect(decide(rule, 1_000, started.state, at(3)).state.breachingSince).toBeNull();
    expect(decide(rule, null, started.state, at(3)).state.breachingSince).toBeNull();
    expect(decide({ ...rule, comparison: 'lt', threshold: 0.9 }, 0.8, idle, at(0)).state.breachingSince).toEqual(at(0));
  });
});
