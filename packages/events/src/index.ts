export { createEventCodec, DEAD_LETTER_SUBJECT, DELIVERY_SUBJECT, type EventCodec } from './codec';
export { EventCodecError, type EventCodecErrorCode } from './codec-error';
export {
  decodeDeadLetter,
  decodeDelivery,
  decodeEvent,
  encodeDeadLetter,
  encodeDelivery,
  encodeEvent,
  schemaFingerprint,
  schemaRegistry,
} from './default-codec';
export { fingerprintHex, parsingCanonicalForm, rabinFingerprint64 } from './fingerprint';
export { createSchemaRegistry, type SchemaEntry, type SchemaRegistry } from './registry';
export { readSchemaFiles, SCHEMAS_ROOT, type SchemaFile } from './schema-files';
export { fingerprintOf, SINGLE_OBJECT_MARKER } from './single-object';
export { eventId, eventMessage, EVENT_HEADERS, type EventMessage } from './event-message';
export { callIdOf } from './call-id';
export { nameUuid } from './name-uuid';
export { isSealed, SEALED_PREFIX, sealedWith, UnreadableSealedValue, type DataKey, type KeyLookup } from './field-sealing';
export { CONVERSATION_TEXT, openConversationText, openRecord, sealedFieldsOf, stillSealed, type OpenOptions } from './sealed-fields';
export { sealingKeys, type EventSealing } from './sealing-keys';
export { erasableCall, erasedInTheClear, type ErasableCall, type ErasedAt, type ErasedCalls } from './erased-calls';
export { openDeadLetter, openDeadLetterBody, sealDeadLetter } from './dead-letter-sealing';
