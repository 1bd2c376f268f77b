import { z } from 'zod';
import { maybe } from './fields';

export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;

/** The call an event is about, as the provider identifies it; unknown keys are kept. */
export const CallSchema = z.looseObject({
  provider_call_id: z.string().min(1),
  agent_id: z.string().min(1),
  direction: maybe(z.enum(CALL_DIRECTIONS)),
  from_number: maybe(z.string()),
  to_number: maybe(z.string()),
  agent_version: maybe(z.string()),
  workflow_id: maybe(z.string()),
  customer_id: maybe(z.string()),
  metadata: maybe(z.record(z.string(), z.string())),
});

export type Call = z.infer<typeof CallSchema>;
