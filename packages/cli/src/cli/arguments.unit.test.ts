import { describe, expect, it } from 'vitest';
import { countArgument, timeArgument } from './arguments';
import { sparkline } from './sparkline';

const now = new Date('2026-11-24T15:30:00.000Z');

describe('command-line arguments', () => {
  it('reads times as people type them: ISO, today, yesterday, now, or a duration ago', () => {
    expect(timeArgument('yesterday', now)).toBe('2026-11-23T00:00:00.000Z');
    expect(timeArgument('today', now)).toBe('2026-11-24T00:00:00.000Z');
    expect(timeArgument('now', now)).toBe(now.toISOString());
    expect(timeArgument('24h', now)).toBe('2026-11-23T15:30:00.000Z');
    expect(timeArgument('90m', now)).toBe('2026-11-24T14:00:00.000Z');
    expect(timeArgument('2026-01-08', now)).toBe('2026-01-08T00:00:00.000Z');
    expect(timeArgument('2026-01-08T09:30:00+01:00', now)).toBe('2026-01-08T08:30:00.000Z');
    for (const bad of ['soon', '2026-13-45', 'last week']) expect(() => timeArgument(bad, now)).toThrow('give an ISO time');
  });

  it('takes counts of at least one', () => {
    expect(countArgument('3')).toBe(3);
    for (const bad of ['0', '-1', '2.5', 'many']) expect(() => countArgument(bad)).toThrow('whole number');
  });

  it('draws a series as bars from lowest to highest, a gap as a space', () => {
    expect(sparkline([0, 7, null, 14])).toBe('▁▅ █');
    expect(sparkline([5, 5])).toBe('▁▁');
    expect(sparkline([null])).toBe('');
  });
});
