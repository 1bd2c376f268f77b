import { describe, expect, it } from 'vitest';
import { coverOf, type Cover } from './cover';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const START = Date.parse('2026-10-01T00:00:00.000Z');

/** Ranges that cut minutes, hours and days at their edges, ones aligned to them, and ones too short for a whole hour. */
const RANGES: { from: number; to: number; intervalMs: number }[] = [
  { from: START - 2 * HOUR + 13 * MINUTE + 27_123, to: START + 3 * DAY + 5 * HOUR + 7_000, intervalMs: DAY },
  { from: START, to: START + 30 * DAY, intervalMs: DAY },
  { from: START + 90 * MINUTE, to: START + 2 * DAY + 30 * MINUTE, intervalMs: 6 * HOUR },
  { from: START + 17 * MINUTE + 1, to: START + DAY, intervalMs: HOUR },
  { from: START + 20 * HOUR, to: START + 22 * HOUR + 59_999, intervalMs: 5 * MINUTE },
  { from: START + 5 * MINUTE, to: START + 50 * MINUTE, intervalMs: HOUR },
];

const ms = (times: string[]) => times.map((t) => Date.parse(t));

/** Each piece of a cover as [start, end) in milliseconds. */
function piecesOf(cover: Cover): [number, number][] {
  const ends = ms(cover.minutes.ends);
  return [
    ...ms(cover.days).map((d): [number, number] => [d, d + DAY]),
    ...ms(cover.hours).map((h): [number, number] => [h, h + HOUR]),
    ...ms(cover.minutes.starts).map((s, i): [number, number] => [s, ends[i] ?? s]),
  ];
}

describe('coverOf', () => {
  it.each(RANGES)('covers every minute of the range once, with no piece across a bucket edge ($from → $to)', ({ from, to, intervalMs }) => {
    const pieces = piecesOf(coverOf(from, to, intervalMs));
    const bucketOf = (t: number) => Math.floor((t - from) / intervalMs);
    for (const [start, end] of pieces) expect(bucketOf(start)).toBe(bucketOf(end - MINUTE));
    // Laid end to end in order, the pieces run from the first whole minute to the minute `to` is in, with no gap or overlap.
    const ordered = [...pieces].sort(([a], [b]) => a - b);
    const joined = ordered.slice(1).map(([start], i) => [ordered[i]?.[1], start]);
    for (const [end, next] of joined) expect(next).toBe(end);
    expect(ordered.every(([start, end]) => start < end)).toBe(true);
    expect([ordered[0]?.[0], ordered.at(-1)?.[1]]).toEqual([Math.ceil(from / MINUTE) * MINUTE, Math.ceil(to / MINUTE) * MINUTE]);
  });

  it.each(RANGES)('bounds its days and hours, and nothing more, by `folds` ($from → $to)', ({ from, to, intervalMs }) => {
    const cover = coverOf(from, to, intervalMs);
    const folded = [...ms(cover.days).map((d) => [d, d + DAY]), ...ms(cover.hours).map((h) => [h, h + HOUR])];
    const bounds = { from: Date.parse(cover.folds.from), to: Date.parse(cover.folds.to) };
    if (folded.length === 0) {
      expect(bounds.to).toBe(bounds.from);
      return;
    }
    expect(bounds.from).toBe(Math.min(...folded.map(([start]) => start ?? Infinity)));
    expect(bounds.to).toBe(Math.max(...folded.map(([, end]) => end ?? -Infinity)));
  });

  it.each(RANGES)(
    'offers as prefixes only runs of its hours that begin a day and end before it does, longer than an hour ($from → $to)',
    ({ from, to, intervalMs }) => {
      const cover = coverOf(from, to, intervalMs);
      const hours = new Set(ms(cover.hours));
      const ends = ms(cover.prefixes.ends);
      for (const [i, day] of ms(cover.prefixes.days).entries()) {
        const end = ends[i] ?? day;
        expect(day % DAY).toBe(0);
        expect(end - day).toBeGreaterThan(HOUR);
        expect(end - day).toBeLessThan(DAY);
        for (let h = day; h < end; h += HOUR) expect(hours.has(h)).toBe(true);
      }
    },
  );

  it('reads a 30-day daily series as whole days, the hours closed today (a prefix of today) and the open hour by its minutes', () => {
    const now = START + 30 * DAY + 15 * HOUR + 24 * MINUTE + 5_000;
    const cover = coverOf(START, now, DAY);
    expect(cover.days).toHaveLength(30);
    expect(cover.hours).toHaveLength(15);
    expect(cover.minutes).toEqual({
      starts: [new Date(START + 30 * DAY + 15 * HOUR).toISOString()],
      ends: [new Date(START + 30 * DAY + 15 * HOUR + 25 * MINUTE).toISOString()],
    });
    expect(cover.prefixes).toEqual({ days: [new Date(START + 30 * DAY).toISOString()], ends: [new Date(START + 30 * DAY + 15 * HOUR).toISOString()] });
    expect(cover.folds).toEqual({ from: new Date(START).toISOString(), to: new Date(START + 30 * DAY + 15 * HOUR).toISOString() });
  });
});
