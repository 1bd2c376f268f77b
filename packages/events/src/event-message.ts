import type { StoredEvent } from '@earshot/contracts';
import { encodeEvent, schemaFingerprint } from './default-codec';
import type { DataKey } from './field-sealing';
import { nameUuid } from './name-uuid';

/** Kafka headers on every event, so a consumer can route or skip one without decoding it. */
export const EVENT_HEADERS = {
  type: 'type',
  schemaFingerprint: 'schema-fingerprint',
  tenant: 'tenant',
  idempotencyKey: 'idempotency-key',
  eventId: 'event-id',
  /** The id of the data key the event's personal fields are sealed with; absent on events written in the clear. */
  sealedWith: 'sealed-with',
} as const;

/** Earshot's namespace for name-based event ids (a fixed random UUID). */
const EVENT_ID_NAMESPACE = '6f1d3c2e-8b4a-4f7e-9a51-2c0d7e4b9f18';

/**
 * The id of the event a tenant sent under an idempotency key: a UUIDv5 of the
 * two, so a retry, a second gateway process or a replay of the log all name
 * the same event the same way, and any consumer can derive it again from the
 * stored event's tenant and idempotency_key.
 */
export function eventId(tenantId: string, idempotencyKey: string): string {
  return nameUuid(`${tenantId}:${idempotencyKey}`, EVENT_ID_NAMESPACE);
}

export interface EventMessage {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

/**
 * The log message for an event. One call's events share the key
 * `tenant:provider_call_id`, so they stay in order; an event about no call
 * (the tenant's own records) is keyed by the record it is about. A caller
 * that already derived the event's id passes it (a UUIDv5 is a SHA-1). With
 * a data key, the event's personal fields are sealed and the key named in a
 * header, so a reader fetches the keys of a batch before decoding it.
 */
export function eventMessage(
  event: StoredEvent,
  recordId: string,
  id: string = eventId(event.tenant, event.idempotency_key),
  sealWith?: DataKey,
): EventMessage {
  const headers: Record<string, string> = {
    [EVENT_HEADERS.type]: event.type,
    [EVENT_HEADERS.schemaFingerprint]: schemaFingerprint(event.type, event.version),
    [EVENT_HEADERS.tenant]: event.tenant,
    [EVENT_HEADERS.idempotencyKey]: event.idempotency_key,
    [EVENT_HEADERS.eventId]: id,
  };
  // Set on the literal rather than spread first into it: a literal that opens with a spread and gains keys is V8's slow path.
  if (sealWith) headers[EVENT_HEADERS.sealedWith] = sealWith.id;
  return { key: `${event.tenant}:${event.call ? event.call.provider_call_id : recordId}`, value: encodeEvent(event, sealWith), headers };
}
