import type { StoredEvent } from '@earshot/contracts';
import { EVENT_HEADERS } from './event-message';
import { erasableCallOf } from './sealing-keys';

/** A call whose erasure reaches an event appended in the clear: no key of the call sealed it, only erased_calls says. */
export interface ErasableCall {
  tenantId: string;
  callId: string;
}

/** When a call was last erased, in milliseconds since the epoch; undefined for one never erased. */
export type ErasedAt = (tenantId: string, callId: string) => number | undefined;

/** When each of these calls was last erased, in one question for the lot (DataKeys.erasedCalls). */
export type ErasedCalls = (calls: readonly ErasableCall[]) => Promise<ErasedAt>;

/** A log record as far as erasure reads it: its headers, and when the log stored it. */
interface StoredRecord {
  headers: Readonly<Record<string, string>>;
  timestamp: number;
}

const NONE_ERASED = () => false;

const inTheClear = (record: StoredRecord) => record.headers[EVENT_HEADERS.sealedWith] === undefined;

/** The call whose erasure reaches a stored event: one appended in the clear about a call. A sealed one is reached by its key. */
export function erasableCall(record: StoredRecord, event: StoredEvent): ErasableCall | null {
  const callId = inTheClear(record) ? erasableCallOf(event) : null;
  // Lowercase, as Postgres gives a uuid back and the projector names the tenant.
  return callId === null ? null : { tenantId: event.tenant.toLowerCase(), callId };
}

/**
 * Which of a batch's records a call's erasure reaches without a key: an event
 * in the clear the log stored before its call was erased (by the log's clock
 * against Postgres's). One stored after makes a new call, as a sealed one does
 * under a new key. `callOf` names a record's erasable call (erasableCall) and
 * is asked only of records in the clear; erasures are asked once for the
 * batch, naming each call once, and not at all when no record names a call in
 * the clear (sealing on, the default: no extra cost). Without `erasedCalls`,
 * nothing is erased.
 */
export async function erasedInTheClear<R extends StoredRecord>(
  records: readonly R[],
  callOf: (record: R) => ErasableCall | null,
  erasedCalls: ErasedCalls | undefined,
): Promise<(record: R) => boolean> {
  if (erasedCalls === undefined || !records.some(inTheClear)) return NONE_ERASED;
  const calls = new Map<R, ErasableCall>();
  const asked = new Map<string, ErasableCall>();
  for (const record of records) {
    const call = inTheClear(record) ? callOf(record) : null;
    if (call === null) continue;
    calls.set(record, call);
    asked.set(`${call.tenantId}:${call.callId}`, call);
  }
  if (calls.size === 0) return NONE_ERASED;
  const erasedAt = await erasedCalls([...asked.values()]);
  return (record) => {
    const call = calls.get(record);
    const at = call === undefined ? undefined : erasedAt(call.tenantId, call.callId);
    return at !== undefined && record.timestamp < at;
  };
}
