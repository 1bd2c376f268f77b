import { describe, expect, it } from 'vitest';
import { formatAgo, formatCents, formatCount, formatDuration, formatMetric, formatMs, formatOffset, formatPercent, formatTick, humanize } from './format';

describe('format', () => {
  it('writes latencies in ms below a second and in seconds above', () => {
    expect(formatMs(845.4)).toBe('845 ms');
    expect(formatMs(1240)).toBe('1.24 s');
    expect(formatMs(12_345)).toBe('12.3 s');
    expect(formatMs(null)).toBe('—');
  });

  it('writes call lengths in seconds, minutes and hours', () => {
    expect(formatDuration(42_400)).toBe('42 s');
    expect(formatDuration(185_000)).toBe('3 m 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 m');
  });

  it('writes ratios as percentages, whole ones without a decimal', () => {
    expect(formatPercent(0.125)).toBe('12.5%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0.0004)).toBe('0%');
    expect(formatPercent(undefined)).toBe('—');
  });

  it('writes counts with separators, large ones compactly when asked', () => {
    expect(formatCount(123_456)).toBe('123,456');
    expect(formatCount(123_456, { compact: true })).toBe('123.5K');
    expect(formatCount(9_999, { compact: true })).toBe('9,999');
  });

  it('writes a metric in its unit', () => {
    expect(formatMetric(812, 'ms')).toBe('812 ms');
    expect(formatMetric(0.5, 'ratio')).toBe('50%');
    expect(formatMetric(12.5, 'usd')).toBe('$12.50');
    expect(formatMetric(3.456, 'score')).toBe('3.46');
    expect(formatCents(123_456)).toBe('$1,234.56');
  });

  it('writes offsets into a call and how long ago', () => {
    expect(formatOffset(12_449)).toBe('0:12.4');
    expect(formatOffset(75_000)).toBe('1:15.0');
    const now = new Date('2026-01-01T12:00:00Z');
    expect(formatAgo('2026-01-01T11:59:50Z', now)).toBe('just now');
    expect(formatAgo('2026-01-01T11:55:00Z', now)).toBe('5 min ago');
    expect(formatAgo('2026-01-01T09:00:00Z', now)).toBe('3 h ago');
    expect(formatAgo(null, now)).toBe('never');
  });

  it('humanizes identifiers', () => {
    expect(humanize('in_progress')).toBe('In progress');
    expect(humanize('tool_calls.failed')).toBe('Tool calls failed');
  });
});

describe('formatTick', () => {
  it('writes axis ticks short', () => {
    expect(formatTick(0)).toBe('0');
    expect(formatTick(500)).toBe('500 ms');
    expect(formatTick(1500)).toBe('1.5 s');
    expect(formatTick(2000)).toBe('2 s');
  });
});
