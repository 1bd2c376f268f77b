import { v5 as uuidv5 } from 'uuid';

/** Earshot's namespace for name-based event ids (a fixed random UUID). */
const EVENT_ID_NAMESPACE = '6f1d3c2e-8b4a-4f7e-9a51-2c0d7e4b9f18';

/**
 * The id of the event a tenant sent under an idempotency key: a UUIDv5 of the
 * two, so a retry, a second gateway process or a replay of the log all name
 * the same event the same way, and any consumer can derive it again from the
 * stored event's tenant and idempotency_key.
 */
export function eventId(tenantId: string, idempotencyKey: string): string {
  return uuidv5(`${tenantId}:${idempotencyKey}`, EVENT_ID_NAMESPACE);
}
