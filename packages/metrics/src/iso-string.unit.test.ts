import { describe, expect, it } from 'vitest';
import { isoString } from './iso-string';

describe('isoString', () => {
  it('writes what toISOString writes, the first time and when remembered, past the point where the record is dropped', () => {
    const start = Date.parse('2026-10-01T00:00:00.000Z');
    const times = Array.from({ length: 25_000 }, (_, i) => start + i * 61_001);
    for (const round of [0, 1]) {
      for (const t of times) if (isoString(t) !== new Date(t).toISOString()) expect.fail(`round ${round}: ${t} read ${isoString(t)}`);
    }
    expect(isoString(-1)).toBe('1969-12-31T23:59:59.999Z');
  });
});
