import type { DeadLetter, Delivery, StoredEvent } from '@earshot/contracts';
import {
  decodeDeadLetter,
  decodeDelivery,
  decodeEvent,
  encodeDeadLetter,
  encodeDelivery,
  EVENT_HEADERS,
  eventMessage,
  openDeadLetter,
  type DataKey,
  type KeyLookup,
  type OpenOptions,
} from '@earshot/events';
import { TOPICS, type LogRecord } from '@earshot/log';
import { defineTopic } from './topic';

/** How an event is keyed when it is about no call, and its id when the caller derived it already. */
export interface EventRecordOptions {
  recordId: string;
  eventId?: string;
  /** The data key that seals the event's personal fields (named in the sealed-with header); in the clear without it. */
  sealWith?: DataKey;
}

/** Avro single-object-encoded events; one call's events share a key so they stay in order. */
export const eventsTopic = defineTopic<typeof TOPICS.events, StoredEvent, EventRecordOptions>(TOPICS.events, {
  message: (event, { recordId, eventId, sealWith }) => eventMessage(event, recordId, eventId, sealWith),
  decode: decodeEvent,
});

/** One record per ingest delivery, keyed by tenant, its outcome in a header so the audit can count without decoding. */
export const deliveriesTopic = defineTopic<typeof TOPICS.deliveries, Delivery>(TOPICS.deliveries, {
  message: (delivery) => ({ key: delivery.tenant, value: encodeDelivery(delivery), headers: { tenant: delivery.tenant, outcome: delivery.outcome } }),
  decode: decodeDelivery,
});

/**
 * Payloads the gateway refused or the projector gave up on, with the reason; keyed by tenant when one is known. A sealed
 * body's key is named in the sealed-with header too, as on events, so a reader fetches a batch's keys before decoding it.
 */
export const deadLettersTopic = defineTopic<typeof TOPICS.deadLetters, DeadLetter>(TOPICS.deadLetters, {
  message: (deadLetter) => ({
    key: deadLetter.tenant ?? deadLetter.id,
    value: encodeDeadLetter(deadLetter),
    headers: {
      ...(deadLetter.tenant ? { tenant: deadLetter.tenant } : {}),
      'dead-letter-id': deadLetter.id,
      source: deadLetter.source,
      ...(deadLetter.sealed_with ? { [EVENT_HEADERS.sealedWith]: deadLetter.sealed_with } : {}),
    },
  }),
  // Opened only for a reader given keys (an export with a tenant's authority); the audit stores bodies as they came.
  decode: (value, keys) => openDeadLetter(decodeDeadLetter(value), keys),
});

/** A record of any topic, read into its payload, told apart by `topic`. */
export type TopicPayload =
  | { topic: typeof TOPICS.events; payload: StoredEvent }
  | { topic: typeof TOPICS.deliveries; payload: Delivery }
  | { topic: typeof TOPICS.deadLetters; payload: DeadLetter };

/** Reads a record of whichever topic it came from, opening sealed fields with the keys given; throws when its value does not decode. */
export function readRecord(record: Pick<LogRecord, 'topic' | 'value'>, keys?: KeyLookup, options?: OpenOptions): TopicPayload {
  switch (record.topic) {
    case TOPICS.events:
      return { topic: record.topic, payload: eventsTopic.read(record, keys, options) };
    case TOPICS.deliveries:
      return { topic: record.topic, payload: deliveriesTopic.read(record) };
    case TOPICS.deadLetters:
      return { topic: record.topic, payload: deadLettersTopic.read(record, keys) };
  }
}
