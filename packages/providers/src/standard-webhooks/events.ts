import { MAX_BATCH, type EventMapping } from '@earshot/contracts';
import type { Mapping, MappingContext } from '../delivery';
import { CallEvents, text, timeOf } from '../envelopes';

/** The value a JSON pointer (RFC 6901) names in a document, or undefined. */
function pointerValue(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let value = document;
  for (const token of pointer.slice(1).split('/')) {
    const name = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, name)) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

const idOf = (value: unknown) => (typeof value === 'number' ? String(value) : text(value));

/** A sender's own JSON, through the mapping its connection declares. */
function mapDeclared(payload: unknown, mapping: EventMapping, context: MappingContext): Mapping {
  const name = idOf(pointerValue(payload, mapping.type));
  const type = name === null ? undefined : mapping.events[name];
  if (!type) return { kind: 'unknown', eventName: name, reason: `event ${name ?? `(nothing at ${mapping.type})`} has no mapping on this connection` };
  const callId = idOf(pointerValue(payload, mapping.providerCallId));
  if (!callId)
    return {
      kind: 'invalid',
      eventName: name,
      reason: `no call id at ${mapping.providerCallId}`,
      fields: [{ path: mapping.providerCallId, message: 'required' }],
    };
  const data = mapping.data ? pointerValue(payload, mapping.data) : {};
  const occurred = mapping.occurredAt ? pointerValue(payload, mapping.occurredAt) : undefined;
  const fallback = context.signedAt ?? context.receivedAt;
  const at = typeof occurred === 'number' ? timeOf(occurred, 's', fallback) : timeOf(occurred, 'iso', fallback);
  const agent = mapping.agentId ? idOf(pointerValue(payload, mapping.agentId)) : null;
  const events = new CallEvents(
    { provider: 'standard-webhooks', connectionId: context.connection.id, event: name as string, payload },
    { provider_call_id: callId, agent_id: agent ?? context.connection.name },
  );
  events.addDeclared(type, context.deliveryKey, at, typeof data === 'object' && data !== null && !Array.isArray(data) ? { ...data } : {});
  return { kind: 'events', eventName: name as string, envelopes: events.envelopes };
}

/**
 * A Standard Webhooks delivery: Earshot envelopes as our ingest takes them
 * (one, or an array), the message id keying any envelope that brought no
 * idempotency_key; or the sender's JSON through the connection's mapping.
 */
export function mapStandardWebhooks(payload: unknown, context: MappingContext): Mapping {
  const mapping = context.connection.mapping;
  if (mapping) return mapDeclared(payload, mapping, context);
  const items = Array.isArray(payload) ? payload : [payload];
  if (items.length === 0 || items.length > MAX_BATCH) {
    return {
      kind: 'invalid',
      eventName: null,
      reason: `a delivery holds 1 to ${MAX_BATCH} envelopes; this one holds ${items.length}`,
      fields: [{ path: '(body)', message: 'length' }],
    };
  }
  const envelopes = items.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item) || 'idempotency_key' in item) return item;
    return { ...item, idempotency_key: Array.isArray(payload) ? `${context.deliveryKey}:${index}` : context.deliveryKey };
  });
  const first = items[0] as { type?: unknown } | null;
  return { kind: 'envelopes', eventName: typeof first?.type === 'string' ? first.type : 'envelope', envelopes };
}
