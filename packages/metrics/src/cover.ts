import { isoString } from './iso-string';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const up = (t: number, unit: number) => Math.ceil(t / unit) * unit;
const down = (t: number, unit: number) => Math.floor(t / unit) * unit;

/**
 * The minute rollups a series over [from, to) reads, bucket by bucket
 * (buckets start at `from`, every interval), as whole UTC days, whole hours
 * and minute ranges [start, end) at the edges: every minute with
 * from <= minute < to is in exactly one of them, and each lies in one bucket.
 * `prefixes` are the runs of those hours that begin a day and end before it
 * does: a fold of the day so far may cover their first hours. `folds`
 * bounds the days and hours, which are read from folds: only a
 * change noted within it can make one of theirs stale (empty when there are
 * none). Times are ISO strings, as a timestamptz[] parameter reads them: pg
 * would write each Date in local time by a slower routine of its own.
 */
export interface Cover {
  days: string[];
  hours: string[];
  minutes: { starts: string[]; ends: string[] };
  prefixes: { days: string[]; ends: string[] };
  folds: { from: string; to: string };
}

export function coverOf(fromMs: number, toMs: number, intervalMs: number): Cover {
  const days: number[] = [];
  const hours: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const prefixDays: number[] = [];
  const prefixEnds: number[] = [];
  // The day's first hours from `start` to `end`; a run of one is left to its hour's fold, which reads no more.
  const hourRun = (start: number, end: number) => {
    const day = up(start, DAY_MS);
    if (end - day > HOUR_MS) {
      prefixDays.push(day);
      prefixEnds.push(end);
    }
  };
  const minutes = (start: number, end: number) => {
    if (start < end) {
      starts.push(start);
      ends.push(end);
    }
  };
  for (let bucket = fromMs; bucket < toMs; bucket += intervalMs) {
    const lo = up(bucket, MINUTE_MS);
    const hi = up(Math.min(bucket + intervalMs, toMs), MINUTE_MS);
    const h0 = up(lo, HOUR_MS);
    const h1 = down(hi, HOUR_MS);
    if (h0 >= h1) {
      minutes(lo, hi);
      continue;
    }
    minutes(lo, h0);
    minutes(h1, hi);
    const d0 = up(h0, DAY_MS);
    const d1 = down(h1, DAY_MS);
    const wholeDays = d0 < d1;
    for (let d = d0; wholeDays && d < d1; d += DAY_MS) days.push(d);
    for (let h = h0; h < h1; h += HOUR_MS) if (!wholeDays || h < d0 || h >= d1) hours.push(h);
    hourRun(wholeDays ? d1 : h0, h1);
  }
  const isoStrings = (ms: number[]) => ms.map(isoString);
  // Both are in ascending order, as the buckets are.
  const first = Math.min(days[0] ?? Infinity, hours[0] ?? Infinity);
  const end = Math.max((days.at(-1) ?? -Infinity) + DAY_MS, (hours.at(-1) ?? -Infinity) + HOUR_MS);
  const folds = Number.isFinite(first) ? { from: isoString(first), to: isoString(end) } : { from: isoString(fromMs), to: isoString(fromMs) };
  return {
    days: isoStrings(days),
    hours: isoStrings(hours),
    minutes: { starts: isoStrings(starts), ends: isoStrings(ends) },
    prefixes: { days: isoStrings(prefixDays), ends: isoStrings(prefixEnds) },
    folds,
  };
}
