import type { Schema } from 'avsc';
import type { StoredEvent } from '@earshot/contracts';
import { fingerprintOf, isSealed, openRecord, schemaRegistry, type KeyLookup, type SchemaEntry } from '@earshot/events';
import { TOPICS, type LogRecord, type TopicName } from '@earshot/log';
import { deadLettersTopic, eventsTopic } from '@earshot/topics';

/** Single-object encoding: 2 marker bytes and an 8-byte fingerprint before the Avro body. */
const SINGLE_OBJECT_HEADER = 10;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const subjectOf = (topic: TopicName) => (topic === TOPICS.events ? 'envelope' : topic === TOPICS.deadLetters ? 'dead-letter' : 'delivery');

/**
 * The schema of a topic's export file, as its .avsc file declares it (docs,
 * `timestamp-millis` and `json` logical types included), for the file header:
 * avsc's parsed type forgets logical types it has no implementation for.
 */
export function exportSchemaOf(topic: TopicName): Schema {
  const entry = schemaRegistry().current(subjectOf(topic));
  if (!entry) throw new Error(`no schema for topic ${topic}`);
  return JSON.parse(entry.text) as Schema;
}

function writerOf(record: LogRecord): SchemaEntry {
  const fingerprint = fingerprintOf(record.value);
  const entry = schemaRegistry().entries.find((e) => e.fingerprintHex === fingerprint);
  if (!entry) throw new Error(`offset ${record.offset}: no schema under schemas/ has fingerprint ${fingerprint}`);
  return entry;
}

/** The record as the current version of its subject reads it: the Avro value, unknown fields still in `extensions`. */
function storedValue(record: LogRecord): Record<string, unknown> {
  const writer = writerOf(record);
  const registry = schemaRegistry();
  const reader = registry.current(writer.subject) ?? writer;
  const value: unknown = reader.type.fromBuffer(record.value.subarray(SINGLE_OBJECT_HEADER), registry.resolver(writer));
  if (!isObject(value)) throw new Error(`offset ${record.offset}: not an Avro record`);
  return value;
}

/** `json` without what `residue` holds: decoding merged the sender's unknown fields back in, and they belong in `extensions`. */
function withoutResidue(json: unknown, residue: unknown): unknown {
  if (!isObject(json) || !isObject(residue)) return json;
  const known = { ...json };
  for (const [key, extra] of Object.entries(residue)) {
    if (isObject(extra) && isObject(known[key])) known[key] = withoutResidue(known[key], extra);
    else delete known[key];
  }
  return known;
}

/**
 * An event in the shape of schemas/envelope: times as timestamp-millis, the
 * data as JSON text (so one schema holds every event type), and the
 * sender's unknown fields in `extensions` as the topic holds them.
 */
function envelopeOf(record: LogRecord, keys: KeyLookup): Record<string, unknown> {
  const event: StoredEvent = eventsTopic.read(record, keys);
  const stored = storedValue(record);
  openRecord(event.type, stored, keys);
  const extensions = typeof stored.extensions === 'string' ? stored.extensions : null;
  // Extensions still sealed hold no residue to take out of the data: decoding could not merge them back in.
  const residue: unknown = extensions === null || isSealed(extensions) ? undefined : JSON.parse(extensions);
  const call = event.call;
  return {
    type: event.type,
    version: event.version,
    idempotency_key: event.idempotency_key,
    occurred_at: Date.parse(event.occurred_at),
    received_at: Date.parse(event.received_at),
    tenant: event.tenant,
    provider: event.provider,
    call: call
      ? {
          provider_call_id: call.provider_call_id,
          agent_id: call.agent_id,
          direction: call.direction,
          from_number: call.from_number,
          to_number: call.to_number,
          agent_version: call.agent_version,
          workflow_id: call.workflow_id,
          customer_id: call.customer_id,
          metadata: call.metadata,
        }
      : null,
    data: JSON.stringify(withoutResidue(event.data, isObject(residue) ? residue.data : undefined)),
    extensions,
  };
}

/** A dead letter as the dead-letter schema holds it, its body opened where the keys given open it. */
function deadLetterOf(record: LogRecord, keys: KeyLookup): Record<string, unknown> {
  const stored = storedValue(record);
  const letter = deadLettersTopic.read(record, keys);
  return letter.sealed_with === null && stored.sealed_with !== null ? Object.assign(stored, { body: Buffer.from(letter.body), sealed_with: null }) : stored;
}

/** A log record as a row of its topic's export file, its sealed fields opened where the keys given open them. */
export function avroRowOf(topic: TopicName, record: LogRecord, keys: KeyLookup): unknown {
  return topic === TOPICS.events ? envelopeOf(record, keys) : topic === TOPICS.deadLetters ? deadLetterOf(record, keys) : storedValue(record);
}
