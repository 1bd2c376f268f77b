/** Time ranges, the metric interval that suits each, and per-bucket arithmetic over metric points. */

export const RANGES = [
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '6h', label: 'Last 6 hours', ms: 6 * 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 24 * 3_600_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
] as const;
export type RangeId = (typeof RANGES)[number]['id'];

const INTERVALS = [
  { id: '1m', ms: 60_000 },
  { id: '5m', ms: 300_000 },
  { id: '15m', ms: 900_000 },
  { id: '1h', ms: 3_600_000 },
  { id: '6h', ms: 6 * 3_600_000 },
  { id: '1d', ms: 86_400_000 },
] as const;
export type IntervalId = (typeof INTERVALS)[number]['id'];

/** Enough points to see a shape, few enough that each bucket holds several calls: at most this many per chart. */
const MAX_POINTS = 120;

export interface TimeWindow {
  from: Date;
  to: Date;
}

export const isRangeId = (value: string | null): value is RangeId => RANGES.some((r) => r.id === value);
export const isIntervalId = (value: string | null): value is IntervalId => INTERVALS.some((i) => i.id === value);

/** The window a named range covers, ending now (to the minute, so a page's queries agree and cache). */
export function windowOf(range: RangeId, now: Date): TimeWindow {
  const span = RANGES.find((r) => r.id === range)?.ms ?? RANGES[0].ms;
  const to = new Date(Math.ceil(now.getTime() / 60_000) * 60_000);
  return { from: new Date(to.getTime() - span), to };
}

/** The finest interval that keeps a window within MAX_POINTS buckets. */
export function intervalFor(window: TimeWindow): IntervalId {
  const span = window.to.getTime() - window.from.getTime();
  return (INTERVALS.find((i) => span / i.ms <= MAX_POINTS) ?? INTERVALS[5]).id;
}

/** The intervals a person may pick for a window: from the finest that stays under 1,500 points to one bucket. */
export function intervalsFor(window: TimeWindow): IntervalId[] {
  const span = window.to.getTime() - window.from.getTime();
  return INTERVALS.filter((i) => span / i.ms <= 1_500 && i.ms <= Math.max(span, INTERVALS[0].ms)).map((i) => i.id);
}

/** A zoom to the selected part of a chart, in seconds as uPlot gives them; a selection under a minute is widened to one. */
export function zoomWindow(fromSeconds: number, toSeconds: number): TimeWindow {
  const from = Math.min(fromSeconds, toSeconds) * 1000;
  const to = Math.max(Math.max(fromSeconds, toSeconds) * 1000, from + 60_000);
  return { from: new Date(Math.floor(from)), to: new Date(Math.ceil(to)) };
}

export interface Point {
  t: string;
  value: number | null;
}

/** failed / total per bucket; null where no call ended. */
export function ratioPoints(numerator: readonly Point[], denominator: readonly Point[]): Point[] {
  const byTime = new Map(numerator.map((p) => [p.t, p.value]));
  return denominator.map(({ t, value: total }) => {
    const part = byTime.get(t) ?? 0;
    return { t, value: total === null || total === 0 ? null : (part ?? 0) / total };
  });
}

export const sumOf = (points: readonly Point[]): number => points.reduce((sum, p) => sum + (p.value ?? 0), 0);

export function peakOf(points: readonly Point[]): number | null {
  const values = points.map((p) => p.value).filter((v): v is number => v !== null);
  return values.length === 0 ? null : Math.max(...values);
}

/** The mean of bucket values weighted by each bucket's count (e.g. p95 by turns): a fair single figure for a range. */
export function weightedMean(values: readonly Point[], weights: readonly Point[]): number | null {
  const weightAt = new Map(weights.map((p) => [p.t, p.value ?? 0]));
  let sum = 0;
  let total = 0;
  for (const { t, value } of values) {
    const weight = weightAt.get(t) ?? 0;
    if (value === null || weight === 0) continue;
    sum += value * weight;
    total += weight;
  }
  return total === 0 ? null : sum / total;
}

/** Seconds since the epoch per point, the x axis uPlot takes. */
export const secondsOf = (points: readonly Point[]): number[] => points.map((p) => Date.parse(p.t) / 1000);
