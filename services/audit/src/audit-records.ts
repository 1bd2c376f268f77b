import { z } from 'zod';
import { DEAD_LETTER_SOURCES, DELIVERY_OUTCOMES, FieldIssueSchema, pagingQuery, type CursorKinds } from '@earshot/contracts';

/** Both stores page newest first by time, then id: the one cursor scheme every list uses. */
export const AUDIT_CURSOR: CursorKinds = { value: 'time', id: 'uuid' };

/** GET /api/v1/admin/deliveries: newest first, optionally one tenant's or one outcome's. */
export const DeliveryListQuerySchema = pagingQuery(100, AUDIT_CURSOR).extend({
  tenantId: z.uuid().optional(),
  outcome: z.enum(DELIVERY_OUTCOMES).optional(),
});

export const DeliveryRecordSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  time: z.string(),
  provider: z.string().nullable(),
  event: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  status: z.enum(DELIVERY_OUTCOMES),
  httpStatus: z.number().int(),
  durationMs: z.number().int(),
  eventId: z.string().nullable(),
  reason: z.string().nullable(),
});
export type DeliveryRecord = z.infer<typeof DeliveryRecordSchema>;

export const DEAD_LETTER_STATUSES = ['held', 'replayed'] as const;

/** GET /api/v1/admin/dead-letters: newest first, optionally one tenant's or one status's. */
export const DeadLetterListQuerySchema = pagingQuery(50, AUDIT_CURSOR).extend({
  tenantId: z.uuid().optional(),
  status: z.enum(DEAD_LETTER_STATUSES).optional(),
});

export const DeadLetterRecordSchema = z.object({
  id: z.string(),
  tenantId: z.string().nullable(),
  provider: z.string().nullable(),
  receivedAt: z.string(),
  source: z.enum(DEAD_LETTER_SOURCES),
  reason: z.string(),
  fields: z.array(FieldIssueSchema),
  eventType: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  status: z.enum(DEAD_LETTER_STATUSES),
  replayAttempts: z.number().int(),
  lastReplayedAt: z.string().nullable(),
  replayedEventIds: z.array(z.string()),
  /** The bytes as received, as text when they are UTF-8; `bodyBase64` always, unless erased. */
  body: z.string().nullable(),
  bodyBase64: z.string().nullable(),
  /** The body was sealed with a data key since destroyed (its call's or its tenant's, erased): `body` and `bodyBase64` are null. */
  erased: z.boolean(),
  /**
   * The body is sealed with a key still held, yet cannot be opened (its stored bytes altered, or it names another key
   * than the one it says): `body` and `bodyBase64` are null, the error is logged with the letter's id, and it cannot be
   * replayed.
   */
  unreadable: z.boolean(),
});
export type DeadLetterRecord = z.infer<typeof DeadLetterRecordSchema>;

export const DeadLetterParamsSchema = z.object({ id: z.string().min(1).max(200) });
