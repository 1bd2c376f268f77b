import { decodeDelivery, decodeEvent } from '@earshot/events';
import { TOPICS, type LogRecord } from '@earshot/log';
import { deriveDelivery, deriveEvent, type Derived } from './effects';
import { projectDelivery, projectEvent } from './projected-event';

export type Decoded = { record: LogRecord; derived: Derived } | { record: LogRecord; poison: string };

/**
 * Decoding and projecting are pure, so a record that fails here fails the
 * same way every time: it is poison at once, without retries.
 */
export function decodeRecord(record: LogRecord): Decoded {
  try {
    if (record.topic === TOPICS.events) return { record, derived: deriveEvent(projectEvent(decodeEvent(record.value), record.value.length)) };
    if (record.topic === TOPICS.deliveries) return { record, derived: deriveDelivery(projectDelivery(decodeDelivery(record.value))) };
    return { record, poison: `the projector does not read topic ${record.topic}` };
  } catch (error) {
    return { record, poison: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
