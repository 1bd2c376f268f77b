import { ApiError } from '@earshot/contracts';
import type { EventLog, LogPosition, OutgoingRecord } from '@earshot/log';

/**
 * Appends and waits at most `timeoutMs`: with the log down, the sender gets
 * a 503 in seconds instead of a hung request, and retries. Nothing is
 * acknowledged that the log has not stored. The producer may still store
 * the records after the 503 (a broker back from a restart): `onLate` gets
 * that append, so the caller can hold its idempotency keys until it
 * settles instead of letting a retry append the same events a second time.
 */
export async function appendWithin(
  log: EventLog,
  records: readonly OutgoingRecord[],
  timeoutMs: number,
  onLate?: (append: Promise<LogPosition[]>) => void,
): Promise<LogPosition[]> {
  let timer: NodeJS.Timeout | undefined;
  const appending = log.append(records);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onLate?.(appending);
      reject(new ApiError('UNAVAILABLE', 'the event log did not acknowledge the append in time; nothing was accepted, retry later'));
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      appending.catch((error: unknown) => {
        throw new ApiError('UNAVAILABLE', 'the event log is unavailable; nothing was accepted, retry later', { cause: error });
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
