import { erasedInTheClear, EVENT_HEADERS, type ErasableCall, type ErasedCalls, type KeyLookup } from '@earshot/events';
import { TOPICS, type LogRecord } from '@earshot/log';
import { decodeRecord, type Decoded } from './decode-record';
import { foldRecords, type FoldedBatch } from './store/tenant-fold';

const inTheClear = (record: LogRecord) => record.topic === TOPICS.events && record.headers[EVENT_HEADERS.sealedWith] === undefined;

/** A batch decoded: how to decode any of its records again (a refold, a record on its own), and all of them folded. */
export interface DecodedBatch {
  decode: (record: LogRecord) => Decoded;
  folded: FoldedBatch;
}

/**
 * Decodes and folds a batch. A call's erasure destroys its data key, which
 * reaches only what the key sealed; an event appended in the clear is passed
 * over by the rule the stream and the export apply too (erasedInTheClear), so
 * neither this projection nor a replay brings the call back. Batches with no
 * event in the clear (sealing on, the default) ask nothing more. The rest are
 * folded as they are decoded, keeping only each record's call, and folded
 * again only when the erasures reach one of them: holding every decoded event
 * until the answer came cost a third more of the projector's CPU, in the
 * collector, and erasures are rare.
 */
export async function decodeBatch(records: readonly LogRecord[], keys: KeyLookup | undefined, erasedCalls: ErasedCalls | undefined): Promise<DecodedBatch> {
  const plain = (record: LogRecord) => decodeRecord(record, keys);
  if (erasedCalls === undefined || !records.some(inTheClear)) return { decode: plain, folded: foldRecords(records, plain) };
  const calls = new Map<LogRecord, ErasableCall>();
  const folded = foldRecords(records, (record) => {
    const decoded = plain(record);
    if ('erasable' in decoded && decoded.erasable !== undefined) calls.set(record, decoded.erasable);
    return decoded;
  });
  const erased = await erasedInTheClear(records, (record) => calls.get(record) ?? null, erasedCalls);
  const decode = (record: LogRecord): Decoded => {
    const call = calls.get(record);
    return call !== undefined && erased(record) ? { record, erased: `call ${call.callId}` } : plain(record);
  };
  return { decode, folded: records.some(erased) ? foldRecords(records, decode) : folded };
}
