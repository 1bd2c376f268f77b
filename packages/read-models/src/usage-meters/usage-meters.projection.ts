import { EVENT_TYPES, type EventType } from '@earshot/contracts';
import type { ProjectedDelivery } from '../projected-event';
import type { CounterProjection, Row } from '../projection';

/**
 * Per tenant and day: events ingested and the bytes of their log records (by
 * the day Earshot received them), API requests (ingest deliveries), and calls
 * with their milliseconds (by the day a call started; the calls projection
 * contributes those). Each day a row per shard, as every batch adds to it.
 */
/** Earshot's own records are not the tenant's use: an invoice must not count towards the next one, nor a call Earshot found abandoned. */
const UNMETERED: ReadonlySet<EventType> = new Set(['invoice.issued', 'billing.plan.changed', 'call.abandoned']);

export const usageMeters: CounterProjection = {
  kind: 'counter',
  name: 'usage-meters',
  version: 2,
  table: 'usage_meters',
  key: ['day', 'shard'],
  sharded: true,
  handles: EVENT_TYPES.filter((type) => !UNMETERED.has(type)),
  merge: { events_ingested: 'sum', stored_bytes: 'sum', calls: 'sum', call_ms: 'sum', api_requests: 'sum' },
  rows: ({ event, bytes }) => [usage(event.received_at, { events_ingested: 1, stored_bytes: bytes })],
};

/** A full row of the meters of one day: every counter present, so a new row starts at zero. */
export function usage(at: string, counts: Partial<Record<'events_ingested' | 'stored_bytes' | 'calls' | 'call_ms' | 'api_requests', number>>): Row {
  return { day: at.slice(0, 10), events_ingested: 0, stored_bytes: 0, calls: 0, call_ms: 0, api_requests: 0, ...counts };
}

export function deliveryUsage({ delivery }: ProjectedDelivery): Row {
  return usage(delivery.time, { api_requests: 1 });
}
