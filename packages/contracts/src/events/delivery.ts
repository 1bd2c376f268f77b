import { z } from 'zod';
import { maybe, nonNegativeInt, timestamp } from './fields';

export const DELIVERY_OUTCOMES = ['accepted', 'duplicate', 'rejected', 'dead_lettered', 'rate_limited'] as const;

/** One ingest request and what became of it, for the delivery audit log. Topic earshot.deliveries. */
export const DeliverySchema = z.object({
  id: z.string().min(1),
  time: timestamp,
  tenant: z.string().min(1),
  provider: maybe(z.string()),
  event_type: maybe(z.string()),
  idempotency_key: maybe(z.string()),
  outcome: z.enum(DELIVERY_OUTCOMES),
  http_status: z.int32().min(100).max(599),
  duration_ms: nonNegativeInt,
  event_id: maybe(z.string()),
  reason: maybe(z.string()),
});

export type Delivery = z.infer<typeof DeliverySchema>;
export type DeliveryOutcome = Delivery['outcome'];
