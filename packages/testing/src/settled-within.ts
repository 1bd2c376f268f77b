import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The work's answer, or `late` if it has not settled within `ms`. The timer stops once the race is decided, so a
 * waiting test does not hold the file open for the rest of it.
 */
export async function settledWithin<T>(work: Promise<T>, ms: number, late: string): Promise<T | string> {
  const timer = new AbortController();
  try {
    return await Promise.race([work, sleep(ms, late, { signal: timer.signal })]);
  } finally {
    timer.abort();
  }
}
