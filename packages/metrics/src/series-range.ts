import type { MetricInterval } from '@earshot/contracts';
import { defaultInterval, INTERVAL_MS, MAX_POINTS } from './catalogue';

const DEFAULT_SPAN_MS = 86_400_000;

export interface SeriesRange {
  from: Date;
  to: Date;
  interval: MetricInterval;
}

/**
 * The range a series answers for what a client asked: `to` defaults to now,
 * `from` to a day before it, the interval to the finest that keeps the range
 * within MAX_POINTS. Buckets lie on the interval's UTC grid (a day is a UTC
 * day, an hour starts on the hour), as dashboards draw them: `from` moves
 * back to the start of its bucket, so every bucket but the last is whole and
 * a 30-day series reads one folded row a day. A range holding more points
 * than MAX_POINTS answers its last MAX_POINTS (the answer's `from` says where
 * they start); a `from` at or after `to` answers none. Each query is valid on
 * its own, as the document can say; how from, to and interval combine is
 * answered, not refused.
 */
export function seriesRange(query: { from?: string | undefined; to?: string | undefined; interval?: MetricInterval | undefined }, now: Date): SeriesRange {
  const to = query.to ? new Date(query.to) : now;
  const asked = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_SPAN_MS);
  const span = Math.max(0, to.getTime() - asked.getTime());
  const interval = query.interval ?? defaultInterval(span) ?? '1d';
  if (span === 0) return { from: to, to, interval };
  const size = INTERVAL_MS[interval];
  const earliest = Math.ceil((to.getTime() - MAX_POINTS * size) / size) * size;
  return { from: new Date(Math.max(Math.floor(asked.getTime() / size) * size, earliest)), to, interval };
}
