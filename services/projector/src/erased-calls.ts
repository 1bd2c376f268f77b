import { EVENT_HEADERS, type KeyLookup } from '@earshot/events';
import { TOPICS, type LogRecord } from '@earshot/log';
import { decodeRecord, type Decoded, type ErasableCall } from './decode-record';

/** When each call was last erased (DataKeys.erasedCalls): milliseconds since the epoch, undefined for one never erased. */
export type ErasedCalls = (calls: readonly ErasableCall[]) => Promise<(tenantId: string, callId: string) => number | undefined>;

const inTheClear = (record: LogRecord) => record.topic === TOPICS.events && record.headers[EVENT_HEADERS.sealedWith] === undefined;

/**
 * The batch's decoder. A call's erasure destroys its data key, which reaches
 * only what the key sealed; an event appended in the clear is passed over
 * when the log stored it before its call was erased (by the log's clock
 * against Postgres's), so neither this projection nor a replay brings the
 * call back, while events stored after the erasure make a new call, as
 * sealed ones do under a new key. Batches with no event in the clear (sealing
 * on, the default) decode record by record, asking nothing more.
 */
export async function batchDecoder(
  records: readonly LogRecord[],
  keys: KeyLookup | undefined,
  erasedCalls: ErasedCalls | undefined,
): Promise<(record: LogRecord) => Decoded> {
  if (erasedCalls === undefined || !records.some(inTheClear)) return (record) => decodeRecord(record, keys);
  const decoded = new Map(records.map((record) => [record, decodeRecord(record, keys)]));
  const erasedAt = await erasedCalls([...decoded.values()].flatMap((d) => ('erasable' in d && d.erasable ? [d.erasable] : [])));
  return (record) => {
    const found = decoded.get(record) ?? decodeRecord(record, keys);
    if (!('erasable' in found) || found.erasable === undefined) return found;
    const at = erasedAt(found.erasable.tenantId, found.erasable.callId);
    return at !== undefined && record.timestamp < at ? { record, erased: `call ${found.erasable.callId}` } : found;
  };
}
