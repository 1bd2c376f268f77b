import type { Delivery, StoredEvent } from '@earshot/contracts';
import { validate as isUuid } from 'uuid';
import { callIdOf } from '@earshot/events';

/** An event the projector cannot apply whatever it tries; it goes to the dead-letter topic with this reason. */
class PoisonEvent extends Error {
  override readonly name = 'PoisonEvent';
}

/** An event as the projections see it: decoded, its tenant checked, its call identified. */
export interface ProjectedEvent {
  event: StoredEvent;
  tenantId: string;
  /** Null for the tenant's own events that are not about a call. */
  callId: string | null;
  /**
   * A total order on events independent of arrival: when it happened, then the
   * idempotency key. "Latest" and "earliest" in every merge rule mean by stamp.
   */
  stamp: string;
  /** Size of the log record it was read from: the stored-data meter adds these up. */
  bytes: number;
}

/** `bytes` is the encoded record's size; code that projects events it did not read from the log (benchmarks) has none. */
export function projectEvent(event: StoredEvent, bytes = 0): ProjectedEvent {
  if (!isUuid(event.tenant)) throw new PoisonEvent(`tenant "${event.tenant}" is not a uuid`);
  return {
    event,
    tenantId: event.tenant.toLowerCase(),
    callId: event.call ? callIdOf(event.tenant.toLowerCase(), event.provider, event.call.provider_call_id) : null,
    stamp: `${event.occurred_at}|${event.idempotency_key}`,
    bytes,
  };
}

/** A delivery (one ingest request) as the usage meters see it. */
export interface ProjectedDelivery {
  delivery: Delivery;
  tenantId: string;
}

export function projectDelivery(delivery: Delivery): ProjectedDelivery {
  if (!isUuid(delivery.tenant)) throw new PoisonEvent(`tenant "${delivery.tenant}" is not a uuid`);
  return { delivery, tenantId: delivery.tenant.toLowerCase() };
}
