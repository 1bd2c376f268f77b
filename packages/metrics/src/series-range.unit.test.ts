import { describe, expect, it } from 'vitest';
import { seriesRange } from './series-range';

const now = new Date('2026-02-01T12:00:00.000Z');

describe('the range a metric series answers (each once a 400 the document could not express)', () => {
  it('is the day before now, at the finest interval within 1,000 points, when nothing is asked', () => {
    expect(seriesRange({}, now)).toEqual({ from: new Date('2026-01-31T12:00:00.000Z'), to: now, interval: '5m' });
  });

  it('starts on the interval grid in UTC, so buckets are whole days, hours or minutes', () => {
    const to = new Date('2026-02-01T12:34:56.789Z');
    expect(seriesRange({ from: '2026-01-02T12:34:56.789Z', interval: '1d' }, to)).toEqual({ from: new Date('2026-01-02T00:00:00.000Z'), to, interval: '1d' });
    expect(seriesRange({ from: '2026-02-01T07:59:59Z', interval: '6h' }, to)).toMatchObject({ from: new Date('2026-02-01T06:00:00.000Z') });
    expect(seriesRange({ from: '2026-02-01T12:07:30Z', interval: '5m' }, to)).toMatchObject({ from: new Date('2026-02-01T12:05:00.000Z') });
    expect(seriesRange({}, to)).toMatchObject({ from: new Date('2026-01-31T12:30:00.000Z'), interval: '5m' });
  });

  it('keeps the last 1,000 points of a range too long for its interval, the last one partial', () => {
    expect(seriesRange({ from: '2025-01-01T00:00:00Z', interval: '1m' }, now)).toEqual({
      from: new Date(now.getTime() - 1_000 * 60_000),
      to: now,
      interval: '1m',
    });
    expect(seriesRange({ from: '0112-02-29T22:49:26Z' }, now)).toMatchObject({ from: new Date('2023-05-09T00:00:00.000Z'), interval: '1d' });
    const odd = new Date('2026-02-01T12:00:30Z');
    const range = seriesRange({ from: '2025-01-01T00:00:00Z', interval: '1m' }, odd);
    expect(Math.ceil((range.to.getTime() - range.from.getTime()) / 60_000)).toBe(1_000);
  });

  it('answers nothing for a from within the bucket of a later to', () => {
    const range = seriesRange({ from: '2026-02-01T12:30:00Z', to: '2026-02-01T12:10:00Z', interval: '1h' }, now);
    expect(range.from.getTime()).toBe(range.to.getTime());
  });

  it('is empty when from is at or after to', () => {
    const range = seriesRange({ from: '2026-02-02T00:00:00Z', to: '2026-02-01T00:00:00Z' }, now);
    expect(range.from.getTime()).toBe(range.to.getTime());
  });
});
