import { z } from 'zod';
import { FieldIssueSchema } from '../errors';
import { maybe, nonNegativeInt, nonNegativeLong, timestamp } from './fields';

export const DEAD_LETTER_SOURCES = ['gateway', 'projector'] as const;

/** A payload that failed permanently, kept with its reason until an operator replays it. Topic earshot.dlq. */
export const DeadLetterSchema = z.object({
  id: z.string().min(1),
  tenant: maybe(z.string()),
  provider: maybe(z.string()),
  received_at: timestamp,
  source: z.enum(DEAD_LETTER_SOURCES),
  reason: z.string(),
  fields: z.array(FieldIssueSchema).default([]),
  /** Exactly as received (a request body may not even be UTF-8), or sealed whole when `sealed_with` names a key. */
  body: z.instanceof(Uint8Array),
  event_type: maybe(z.string()),
  idempotency_key: maybe(z.string()),
  /** Where the projector consumed it; null for gateway dead letters. */
  topic: maybe(z.string()),
  partition: maybe(nonNegativeInt),
  offset: maybe(nonNegativeLong),
  /**
   * The data key (its tenant's) the gateway sealed `body` with, so erasing the tenant erases it; null for a body in
   * the clear. A projector dead letter's body is the event record as stored, its fields sealed in themselves.
   */
  sealed_with: maybe(z.string()),
});

export type DeadLetter = z.infer<typeof DeadLetterSchema>;
