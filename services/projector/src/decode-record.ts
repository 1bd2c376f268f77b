import type { LogRecord } from '@earshot/log';
import { readRecord } from '@earshot/topics';
import { deriveDelivery, deriveEvent, type Derived } from './effects';
import { projectDelivery, projectEvent } from './projected-event';

export type Decoded = { record: LogRecord; derived: Derived } | { record: LogRecord; poison: string };

/**
 * Decoding and projecting are pure, so a record that fails here fails the
 * same way every time: it is poison at once, without retries.
 */
export function decodeRecord(record: LogRecord): Decoded {
  try {
    const read = readRecord(record);
    if (read.topic === 'earshot.events') return { record, derived: deriveEvent(projectEvent(read.payload, record.value.length)) };
    if (read.topic === 'earshot.deliveries') return { record, derived: deriveDelivery(projectDelivery(read.payload)) };
    return { record, poison: `the projector does not read topic ${record.topic}` };
  } catch (error) {
    return { record, poison: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
