import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMillis, isoTime } from './iso-time';

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

describe('isoMillis', () => {
  it('reads every time isoTime writes as Date.parse does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS }), (ms) => {
        expect(isoMillis(isoTime(ms))).toBe(ms);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads times of alternating days, and of the same day again, right', () => {
    const times = ['2026-01-05T23:59:59.500Z', '2026-01-06T00:00:00.500Z', '2026-01-05T00:00:00.000Z', '2026-01-05T12:34:56.789Z', '2026-01-06T23:59:59.999Z'];
    for (const text of [...times, ...times]) expect(isoMillis(text), text).toBe(Date.parse(text));
  });

  it('leaves every other text to Date.parse, after a day is cached too', () => {
    const others = [
      '2026-01-05T24:00:00.000Z',
      '2026-01-05T23:60:00.000Z',
      '2026-01-05T23:59:60.000Z',
      '2026-01-05T2a:00:00.000Z',
      '2026-01-05T23:59:59.99aZ',
      '2026-01-05T23-59:59.999Z',
      '2026-01-05T23:59:59,999Z',
      '2026-01-05T23:59:59.999+',
      '2026-01-05T23:59:59Z',
      '2026-01-05T23:59:59.999+01:00',
      '2026-02-30T10:00:00.000Z',
      '+012026-01-05T10:00:00.000Z',
      'not a time at all, 24 ch',
      '',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...others), fc.string(), (other, noise) => {
        isoMillis('2026-01-05T10:00:00.000Z');
        expect(isoMillis(other), other).toBe(Date.parse(other));
        expect(isoMillis(noise), noise).toBe(Date.parse(noise));
      }),
      { numRuns: 2_000 },
    );
  });
});
