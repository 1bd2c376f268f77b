import { ApiError } from '@earshot/contracts';
import type { EventLog, LogPosition, OutgoingRecord } from '@earshot/log';

/**
 * Appends and waits at most `timeoutMs`: with the log down, the sender gets
 * a 503 in seconds instead of a hung request, and retries. Nothing is
 * acknowledged that the log has not stored; an append that completes after
 * the 503 only means the retry appends the same event (same id) again.
 */
export async function appendWithin(log: EventLog, records: readonly OutgoingRecord[], timeoutMs: number): Promise<LogPosition[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ApiError('UNAVAILABLE', 'the event log did not acknowledge the append in time; nothing was accepted, retry later')),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      log.append(records).catch((error: unknown) => {
        throw new ApiError('UNAVAILABLE', 'the event log is unavailable; nothing was accepted, retry later', { cause: error });
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
