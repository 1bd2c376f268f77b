import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time';

const MAX_DATE_MS = 8.64e15;

describe('isoTime', () => {
  it('writes every time as Date#toISOString does, across the whole range of dates', () => {
    fc.assert(
      // Mostly 1970 to 9999, the range written without Date, and the rest of Date's range beside it.
      fc.property(
        fc.oneof({ arbitrary: fc.integer({ min: 0, max: 253_402_300_799_999 }), weight: 4 }, fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS })),
        (ms) => {
          expect(isoTime(ms)).toBe(new Date(ms).toISOString());
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('writes the edges of days, years and its own fast range as Date does', () => {
    const edges = [0, 1, 999, 1_000, 59_999, 86_399_999, 86_400_000, Date.parse('2024-02-29T23:59:59.999Z'), 253_402_300_799_999, 253_402_300_800_000, -1];
    for (const ms of edges) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('gives the right day when times of two days alternate', () => {
    const monday = Date.parse('2026-01-05T23:59:59.500Z');
    const tuesday = monday + 1_000;
    for (const ms of [monday, tuesday, monday, tuesday]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('refuses what Date refuses', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(MAX_DATE_MS + 1)).toThrow(RangeError);
  });
});
