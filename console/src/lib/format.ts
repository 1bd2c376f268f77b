/** How the console writes numbers, durations, money and times: one place, so every page reads the same. */

const DASH = '—';

/** A latency: `845 ms` below a second, `1.24 s` above it. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH;
  if (Math.abs(ms) < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** An axis tick: `0`, `500 ms`, `1.5 s`, `2 s`. */
export function formatTick(ms: number): string {
  if (ms === 0) return '0';
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(2))} s`;
}

/** A call's length: `42 s`, `3 m 05 s`, `1 h 02 m`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} m ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} m`;
}

/** A ratio as a percentage with one decimal (`12.5%`), or none when it is whole (`100%`). */
export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return DASH;
  const percent = ratio * 100;
  return `${Number.isInteger(Math.round(percent * 10) / 10) ? Math.round(percent) : percent.toFixed(1)}%`;
}

const counts = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export function formatCount(n: number | null | undefined, options: { compact?: boolean } = {}): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return DASH;
  return options.compact && Math.abs(n) >= 10_000 ? compact.format(n) : counts.format(n);
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatUsd(amount: number | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return DASH;
  return dollars.format(amount);
}

export const formatCents = (cents: number | null | undefined): string => formatUsd(cents === null || cents === undefined ? cents : cents / 100);

/** A metric's value in its catalogue unit. */
export function formatMetric(value: number | null | undefined, unit: string): string {
  switch (unit) {
    case 'ms':
      return formatMs(value);
    case 'ratio':
      return formatPercent(value);
    case 'usd':
      return formatUsd(value);
    default:
      return value === null || value === undefined ? DASH : Number.isInteger(value) ? formatCount(value) : value.toFixed(2);
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A time of day in the viewer's zone, to the second: `14:05:09`. */
export function formatClock(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const date = new Date(iso);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date and time in the viewer's zone: `24 Nov 14:05`. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const date = new Date(iso);
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** How long ago, coarsely: `just now`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAgo(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'never';
  const seconds = Math.round((now.getTime() - new Date(iso).getTime()) / 1000);
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

/** A call's offset from its start: `0:12.4`. */
export function formatOffset(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH;
  const tenths = Math.max(0, Math.round(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  return `${minutes}:${seconds.toFixed(1).padStart(4, '0')}`;
}

/** `in_progress` → `In progress`. */
export const humanize = (word: string): string => {
  const spaced = word.replaceAll(/[_.-]+/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};
