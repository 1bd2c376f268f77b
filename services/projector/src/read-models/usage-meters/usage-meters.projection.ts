import { EVENT_TYPES } from '@earshot/contracts';
import type { ProjectedDelivery } from '../../projected-event';
import type { CounterProjection, Row } from '../projection';

/**
 * Per tenant and day: events ingested (by the day Earshot received them),
 * API requests (ingest deliveries), and calls with their milliseconds (by the
 * day a call started; the calls projection contributes those).
 */
export const usageMeters: CounterProjection = {
  kind: 'counter',
  name: 'usage-meters',
  version: 1,
  table: 'usage_meters',
  key: ['day'],
  handles: EVENT_TYPES,
  merge: { events_ingested: 'sum', calls: 'sum', call_ms: 'sum', api_requests: 'sum' },
  rows: ({ event }) => [usage(event.received_at, { events_ingested: 1 })],
};

/** A full row of the meters of one day: every counter present, so a new row starts at zero. */
export function usage(at: string, counts: Partial<Record<'events_ingested' | 'calls' | 'call_ms' | 'api_requests', number>>): Row {
  return { day: at.slice(0, 10), events_ingested: 0, calls: 0, call_ms: 0, api_requests: 0, ...counts };
}

export function deliveryUsage({ delivery }: ProjectedDelivery): Row {
  return usage(delivery.time, { api_requests: 1 });
}
