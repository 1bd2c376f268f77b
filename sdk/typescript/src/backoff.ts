/** Jittered exponential backoff: 0.5 s doubling to at most 8 s, and never less than the server's Retry-After. */
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/**
 * How long to wait before retry number `retry` (1 for the first retry).
 * "Full jitter" between half and the whole of the exponential step, so
 * clients that failed together do not retry together.
 */
export function retryDelayMs(retry: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  const step = Math.min(MAX_DELAY_MS, INITIAL_DELAY_MS * 2 ** (retry - 1));
  const jittered = step / 2 + (random() * step) / 2;
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * Retry-After in milliseconds: seconds, or an HTTP date; undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
