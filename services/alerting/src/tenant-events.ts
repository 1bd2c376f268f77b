import { CURRENT_EVENT_VERSION, StoredEventSchema, type EventData, type StoredEvent, type TenantEventType } from '@earshot/contracts';
import { encodeEvent, schemaFingerprint } from '@earshot/events';
import { TOPICS, type EventLog } from '@earshot/log';

/** Who appends the evaluator's events, where a provider's name goes. */
const ALERTING_PROVIDER = 'earshot-alerting';

export interface TenantEvent<T extends TenantEventType> {
  type: T;
  /** Deterministic, so an evaluation repeated after a crash appends the same event and the projector applies it once. */
  key: string;
  /** What the event is about; its log key, which keeps one alert's or incident's events in order. */
  subject: string;
  data: EventData<T>;
}

function storedEvent<T extends TenantEventType>(tenantId: string, at: Date, event: TenantEvent<T>): StoredEvent {
  return StoredEventSchema.parse({
    type: event.type,
    version: CURRENT_EVENT_VERSION,
    idempotency_key: `alerting:${event.key}`,
    occurred_at: at.toISOString(),
    tenant: tenantId,
    provider: ALERTING_PROVIDER,
    received_at: at.toISOString(),
    call: null,
    data: event.data,
  });
}

export async function appendTenantEvents(log: EventLog, tenantId: string, at: Date, events: readonly TenantEvent<TenantEventType>[]): Promise<void> {
  await log.append(
    events.map((e) => {
      const stored = storedEvent(tenantId, at, e);
      return {
        topic: TOPICS.events,
        key: `${tenantId}:${e.subject}`,
        value: encodeEvent(stored),
        headers: {
          type: stored.type,
          'schema-fingerprint': schemaFingerprint(stored.type, stored.version),
          tenant: tenantId,
          'idempotency-key': stored.idempotency_key,
        },
      };
    }),
  );
}
