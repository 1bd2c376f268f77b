import { InvalidArgumentError } from 'commander';
import ms, { type StringValue } from 'ms';

const DAY_MS = 86_400_000;

/**
 * A time as a person types it: an ISO date or time, `now`, `today` or
 * `yesterday` (UTC midnight, as the API's day buckets), or a duration ago
 * (`90m`, `24h`, `7d`). Answers the ISO string the API takes.
 */
export function timeArgument(text: string, now: Date = new Date()): string {
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (text === 'now') return now.toISOString();
  if (text === 'today') return new Date(midnight).toISOString();
  if (text === 'yesterday') return new Date(midnight - DAY_MS).toISOString();
  const ago = /^\d/.test(text) && !/^\d{4}-/.test(text) ? ms(text as StringValue) : undefined;
  if (typeof ago === 'number' && Number.isFinite(ago)) return new Date(now.getTime() - ago).toISOString();
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at))
    throw new InvalidArgumentError('give an ISO time (2026-11-23 or 2026-11-23T09:00:00Z), now, today, yesterday, or a duration ago such as 24h');
  return new Date(at).toISOString();
}

/** A whole number of at least 1. */
export function countArgument(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('give a whole number of at least 1');
  return value;
}

/** A duration such as `90s`, `15m`, `24h` or `7d`, in milliseconds. */
export function durationArgument(text: string): number {
  const value = ms(text as StringValue);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new InvalidArgumentError('give a duration such as 90s, 15m, 24h or 7d');
  return value;
}
