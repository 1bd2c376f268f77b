import { z } from 'zod';
import { PROVIDER_EVENT_TYPES } from '../events/event-types';
import { storedId } from '../text';

/** Envelopes one ingest body may batch. */
export const MAX_BATCH = 500;

/** The signed ingest endpoint's headers (POST /webhooks/ingest). */
export const INGEST_HEADERS = {
  timestamp: 'x-earshot-timestamp',
  signature: 'x-earshot-signature',
  provider: 'x-earshot-provider',
} as const;

/** The flat event endpoint's headers (POST /webhooks/events, spec row 5). */
export const WEBHOOK_EVENT_HEADERS = {
  timestamp: 'x-timestamp',
  signature: 'x-signature',
  idempotencyKey: 'idempotency-key',
} as const;

/** The flat event of spec row 5. */
export const WebhookEventSchema = z.object({
  type: z.enum(PROVIDER_EVENT_TYPES),
  agent_id: storedId,
  provider_call_id: storedId,
  latency_ms: z.int().min(0),
});

/** An envelope taken in: the event's id, and whether its idempotency key had been seen (the earlier answer, replayed). */
export const AcceptedSchema = z.object({ ok: z.literal(true), id: z.string(), duplicate: z.boolean() });
export type Accepted = z.infer<typeof AcceptedSchema>;
