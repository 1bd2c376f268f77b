import { describe, expect, it } from 'vitest';
import { intervalFor, intervalsFor, peakOf, ratioPoints, secondsOf, sumOf, weightedMean, windowOf, zoomWindow } from './range';

const now = new Date('2026-03-01T12:00:30Z');

describe('range', () => {
  it('ends a window at the next whole minute, so queries made within a minute agree', () => {
    const window = windowOf('1h', now);
    expect(window.to.toISOString()).toBe('2026-03-01T12:01:00.000Z');
    expect(window.from.toISOString()).toBe('2026-03-01T11:01:00.000Z');
    expect(windowOf('1h', new Date('2026-03-01T12:00:59Z')).to.toISOString()).toBe('2026-03-01T12:01:00.000Z');
  });

  it('picks the finest interval with at most 120 buckets', () => {
    expect(intervalFor(windowOf('1h', now))).toBe('1m');
    expect(intervalFor(windowOf('6h', now))).toBe('5m');
    expect(intervalFor(windowOf('24h', now))).toBe('15m');
    expect(intervalFor(windowOf('7d', now))).toBe('6h');
    expect(intervalFor(windowOf('30d', now))).toBe('6h');
  });

  it('offers intervals from fine to one bucket', () => {
    expect(intervalsFor(windowOf('1h', now))).toEqual(['1m', '5m', '15m', '1h']);
    expect(intervalsFor(windowOf('30d', now))).toEqual(['1h', '6h', '1d']);
  });

  it('zooms to a selection in either direction, at least a minute wide', () => {
    const zoom = zoomWindow(1_772_366_460, 1_772_366_400);
    expect(zoom.from.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(zoom.to.toISOString()).toBe('2026-03-01T12:01:00.000Z');
    expect(zoomWindow(1_772_366_400, 1_772_366_410).to.getTime() - zoomWindow(1_772_366_400, 1_772_366_410).from.getTime()).toBe(60_000);
  });

  it('divides per bucket, with no ratio where nothing ended', () => {
    const failed = [
      { t: 'a', value: 1 },
      { t: 'b', value: null },
    ];
    const total = [
      { t: 'a', value: 4 },
      { t: 'b', value: 5 },
      { t: 'c', value: 0 },
    ];
    expect(ratioPoints(failed, total)).toEqual([
      { t: 'a', value: 0.25 },
      { t: 'b', value: 0 },
      { t: 'c', value: null },
    ]);
    expect(sumOf(total)).toBe(9);
    expect(peakOf(failed)).toBe(1);
    expect(peakOf([{ t: 'a', value: null }])).toBeNull();
  });

  it('weights bucket values by their counts', () => {
    const p95 = [
      { t: 'a', value: 1000 },
      { t: 'b', value: 500 },
      { t: 'c', value: null },
    ];
    const turns = [
      { t: 'a', value: 1 },
      { t: 'b', value: 3 },
      { t: 'c', value: 8 },
    ];
    expect(weightedMean(p95, turns)).toBe(625);
    expect(weightedMean(p95, [])).toBeNull();
    expect(secondsOf([{ t: '2026-03-01T12:00:00Z', value: 1 }])).toEqual([1_772_366_400]);
  });
});
