import { erasedInTheClear, EVENT_HEADERS, type ErasedCalls, type KeyLookup } from '@earshot/events';
import { TOPICS, type LogRecord } from '@earshot/log';
import { decodeRecord, type Decoded } from './decode-record';

const inTheClear = (record: LogRecord) => record.topic === TOPICS.events && record.headers[EVENT_HEADERS.sealedWith] === undefined;

/**
 * The batch's decoder. A call's erasure destroys its data key, which reaches
 * only what the key sealed; an event appended in the clear is passed over by
 * the rule the stream and the export apply too (erasedInTheClear), so
 * neither this projection nor a replay brings the call back. Batches with no
 * event in the clear (sealing on, the default) decode record by record,
 * asking nothing more.
 */
export async function batchDecoder(
  records: readonly LogRecord[],
  keys: KeyLookup | undefined,
  erasedCalls: ErasedCalls | undefined,
): Promise<(record: LogRecord) => Decoded> {
  if (erasedCalls === undefined || !records.some(inTheClear)) return (record) => decodeRecord(record, keys);
  const decoded = new Map(records.map((record) => [record, decodeRecord(record, keys)]));
  const erased = await erasedInTheClear(records, (record) => erasableOf(decoded.get(record)), erasedCalls);
  return (record) => {
    const found = decoded.get(record) ?? decodeRecord(record, keys);
    const call = erasableOf(found);
    return call !== null && erased(record) ? { record, erased: `call ${call.callId}` } : found;
  };
}

const erasableOf = (decoded: Decoded | undefined) => (decoded !== undefined && 'erasable' in decoded ? (decoded.erasable ?? null) : null);
