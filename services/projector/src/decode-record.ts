import { erasableCall, EVENT_HEADERS, type ErasableCall, type KeyLookup } from '@earshot/events';
import type { LogRecord } from '@earshot/log';
import { readRecord } from '@earshot/topics';
import { deriveDelivery, deriveEvent, type Derived } from './effects';
import { projectDelivery, projectEvent } from '@earshot/read-models';

export type Decoded =
  { record: LogRecord; derived: Derived; erasable?: ErasableCall } | { record: LogRecord; poison: string } | { record: LogRecord; erased: string };

/**
 * Decoding and projecting are pure, so a record that fails here fails the
 * same way every time: it is poison at once, without retries. An event
 * sealed with a key that no longer exists was erased (its tenant deleted,
 * or its call): it is passed over, in a replay too. One appended in the
 * clear names the call whose erasure would reach it (`erasable`).
 */
export function decodeRecord(record: LogRecord, keys: KeyLookup = () => undefined): Decoded {
  try {
    const sealedWith = record.headers[EVENT_HEADERS.sealedWith];
    if (sealedWith !== undefined && keys(sealedWith) === undefined) return { record, erased: sealedWith };
    // Only a record with the header holds sealed fields: the rest skip the walk that would open them. What was said and
    // what tools were given stay sealed: the read models keep them so, and the query service opens what it answers.
    const read = readRecord(record, sealedWith === undefined ? undefined : keys, { leaveKeptSealed: true });
    if (read.topic === 'earshot.events') {
      const derived = deriveEvent(projectEvent(read.payload, record.value.length));
      const erasable = erasableCall(record, read.payload);
      return erasable === null ? { record, derived } : { record, derived, erasable };
    }
    if (read.topic === 'earshot.deliveries') return { record, derived: deriveDelivery(projectDelivery(read.payload)) };
    return { record, poison: `the projector does not read topic ${record.topic}` };
  } catch (error) {
    return { record, poison: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
