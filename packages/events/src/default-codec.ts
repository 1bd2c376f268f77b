import type { DeadLetter, Delivery, StoredEvent } from '@earshot/contracts';
import { createEventCodec, type EventCodec } from './codec';
import { EventCodecError } from './codec-error';
import type { DataKey, KeyLookup } from './field-sealing';
import { createSchemaRegistry, type SchemaRegistry } from './registry';
import type { OpenOptions } from './sealed-fields';
import { readSchemaFiles } from './schema-files';

// Built on first use, so importing the package reads no files; afterwards nothing is parsed per message.
let registry: SchemaRegistry | undefined;
let codec: EventCodec | undefined;

/** Every schema released under the repository's schemas/ directory. */
export function schemaRegistry(): SchemaRegistry {
  registry ??= createSchemaRegistry(readSchemaFiles());
  return registry;
}

function defaultCodec(): EventCodec {
  codec ??= createEventCodec(schemaRegistry());
  return codec;
}

/**
 * The hex fingerprint of a released schema, for the schema-fingerprint Kafka
 * header: `subject` is an event type, dead-letter, delivery or envelope; the
 * newest version when `version` is left out, else the one in force at it.
 */
export function schemaFingerprint(subject: string, version?: string): string {
  const entry = version === undefined ? schemaRegistry().current(subject) : schemaRegistry().inForce(subject, version);
  if (entry === undefined) throw new EventCodecError('UNKNOWN_SCHEMA', `no schema file schemas/${subject}/${version ?? '<any version>'}.avsc`);
  return entry.fingerprintHex;
}

export const encodeEvent = (event: StoredEvent, sealWith?: DataKey): Buffer => defaultCodec().encodeEvent(event, sealWith);
export const decodeEvent = (message: Uint8Array, keys?: KeyLookup, options?: OpenOptions): StoredEvent => defaultCodec().decodeEvent(message, keys, options);
export const encodeDeadLetter = (deadLetter: DeadLetter): Buffer => defaultCodec().encodeDeadLetter(deadLetter);
export const decodeDeadLetter = (message: Uint8Array): DeadLetter => defaultCodec().decodeDeadLetter(message);
export const encodeDelivery = (delivery: Delivery): Buffer => defaultCodec().encodeDelivery(delivery);
export const decodeDelivery = (message: Uint8Array): Delivery => defaultCodec().decodeDelivery(message);
