import { EVENT_TYPES, JSON_LIMITS, type DeadLetter, type Delivery, type EventType, type StoredEvent } from '@earshot/contracts';
import { isObject, recordFromAvro, recordToAvro, type Residue } from './avro-json';
import { EventCodecError } from './codec-error';
import { isSealed, type DataKey, type KeyLookup } from './field-sealing';
import { openRecord, sealRecord, type OpenOptions } from './sealed-fields';
import { fingerprintHex } from './fingerprint';
import { EXTENSIONS_FIELD, type SchemaEntry, type SchemaRegistry } from './registry';
import { frame, unframe } from './single-object';

export const DEAD_LETTER_SUBJECT = 'dead-letter';
export const DELIVERY_SUBJECT = 'delivery';

export interface EventCodec {
  /** Writes the event with the schema of its type and version; with a data key, its personal fields sealed (sealedFieldsOf). */
  encodeEvent(event: StoredEvent, sealWith?: DataKey): Buffer;
  /**
   * Reads an event written with any known version of its type, in the shape of the type's current version. Sealed fields are
   * opened with the keys given, as `options` say; a field whose key is not held stays its sealed text (sealed extensions:
   * under `extensions`).
   */
  decodeEvent(message: Uint8Array, keys?: KeyLookup, options?: OpenOptions): StoredEvent;
  encodeDeadLetter(deadLetter: DeadLetter): Buffer;
  decodeDeadLetter(message: Uint8Array): DeadLetter;
  encodeDelivery(delivery: Delivery): Buffer;
  decodeDelivery(message: Uint8Array): Delivery;
}

const eventSubjects: ReadonlySet<string> = new Set(EVENT_TYPES);
const isEventSubject = (subject: string): subject is EventType => eventSubjects.has(subject);

function invalidValue(writer: SchemaEntry, value: unknown, cause: unknown): EventCodecError {
  const problems: string[] = [];
  writer.type.isValid(value, {
    errorHook: (path, found) => problems.push(`${path.join('.') || '(root)'}: ${JSON.stringify(found) ?? 'undefined'}`),
  });
  const detail = problems.length > 0 ? problems.join('; ') : cause instanceof Error ? cause.message : String(cause);
  return new EventCodecError('INVALID_VALUE', `value does not fit ${writer.path}: ${detail}`, { cause });
}

/** The fields the schema does not know, as JSON text, within the bound every reader of the log can rely on. */
function extensions(writer: SchemaEntry, residue: Residue): string {
  const text = JSON.stringify(residue);
  const bytes = Buffer.byteLength(text);
  if (bytes > JSON_LIMITS.maxUnknownFieldBytes)
    throw new EventCodecError(
      'INVALID_VALUE',
      `fields ${writer.path} does not know take ${bytes} bytes of JSON; at most ${JSON_LIMITS.maxUnknownFieldBytes} are kept: ${Object.keys(residue).slice(0, 10).join(', ')}`,
    );
  return text;
}

function encodeWith(writer: SchemaEntry, json: unknown, sealWith?: DataKey): Buffer {
  const { value, residue } = recordToAvro(writer.mapping, json);
  if (writer.extensible) value[EXTENSIONS_FIELD] = residue === undefined ? null : extensions(writer, residue);
  if (sealWith !== undefined && isEventSubject(writer.subject)) sealRecord(writer.subject, value, sealWith);
  let body: Buffer;
  try {
    body = writer.type.toBuffer(value);
  } catch (error) {
    throw invalidValue(writer, value, error);
  }
  return frame(writer.fingerprint, body);
}

export function createEventCodec(registry: SchemaRegistry): EventCodec {
  function writerFor(subject: string, version?: string): SchemaEntry {
    const writer = version === undefined ? registry.current(subject) : registry.inForce(subject, version);
    if (writer === undefined) {
      throw new EventCodecError('UNKNOWN_SCHEMA', `no schema file schemas/${subject}/${version ?? '<any version>'}.avsc`);
    }
    return writer;
  }

  function decodeAs(
    message: Uint8Array,
    expected: string,
    accepts: (subject: string) => boolean,
    keys?: KeyLookup,
    options?: OpenOptions,
  ): Record<string, unknown> {
    const { fingerprint, body } = unframe(message);
    const writer = registry.byFingerprint(fingerprint);
    if (writer === undefined) {
      throw new EventCodecError('UNKNOWN_FINGERPRINT', `no schema under schemas/ has fingerprint ${fingerprintHex(fingerprint)}`);
    }
    if (!accepts(writer.subject)) {
      throw new EventCodecError('WRONG_SCHEMA', `expected ${expected}, got a message written with ${writer.path}`);
    }
    // The registry always has a current reader for a writer it knows.
    const reader = registry.current(writer.subject) ?? writer;
    try {
      const value: unknown = reader.type.fromBuffer(body, registry.resolver(writer));
      if (keys !== undefined && isObject(value) && isEventSubject(writer.subject)) openRecord(writer.subject, value, keys, options);
      const extensions = reader.extensible && isObject(value) ? value[EXTENSIONS_FIELD] : null;
      const residue: unknown = isSealed(extensions) ? { [EXTENSIONS_FIELD]: extensions } : typeof extensions === 'string' ? JSON.parse(extensions) : undefined;
      return recordFromAvro(reader.mapping, value, residue);
    } catch (error) {
      throw new EventCodecError('MALFORMED_BODY', `body does not decode with ${writer.path}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }

  // The casts below are safe because every schema file agrees with its zod contract (schemas-match-contracts test).
  return {
    encodeEvent: (event, sealWith) => encodeWith(writerFor(event.type, event.version), event, sealWith),
    decodeEvent: (message, keys, options) => decodeAs(message, 'an event', isEventSubject, keys, options) as StoredEvent,
    encodeDeadLetter: (deadLetter) => encodeWith(writerFor(DEAD_LETTER_SUBJECT), deadLetter),
    decodeDeadLetter: (message) => decodeAs(message, 'a dead letter', (subject) => subject === DEAD_LETTER_SUBJECT) as DeadLetter,
    encodeDelivery: (delivery) => encodeWith(writerFor(DELIVERY_SUBJECT), delivery),
    decodeDelivery: (message) => decodeAs(message, 'a delivery', (subject) => subject === DELIVERY_SUBJECT) as Delivery,
  };
}
