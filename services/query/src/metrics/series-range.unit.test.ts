import { describe, expect, it } from 'vitest';
import { seriesRange } from './series-range';

const now = new Date('2026-02-01T12:00:00.000Z');

describe('the range a metric series answers (each once a 400 the document could not express)', () => {
  it('is the day before now, at the finest interval within 1,000 points, when nothing is asked', () => {
    expect(seriesRange({}, now)).toEqual({ from: new Date('2026-01-31T12:00:00.000Z'), to: now, interval: '5m' });
  });

  it('keeps the last 1,000 points of a range too long for its interval', () => {
    expect(seriesRange({ from: '2025-01-01T00:00:00Z', interval: '1m' }, now)).toEqual({ from: new Date(now.getTime() - 1_000 * 60_000), to: now, interval: '1m' });
    expect(seriesRange({ from: '0112-02-29T22:49:26Z' }, now)).toMatchObject({ from: new Date(now.getTime() - 1_000 * 86_400_000), interval: '1d' });
  });

  it('is empty when from is at or after to', () => {
    const range = seriesRange({ from: '2026-02-02T00:00:00Z', to: '2026-02-01T00:00:00Z' }, now);
    expect(range.from.getTime()).toBe(range.to.getTime());
  });
});
