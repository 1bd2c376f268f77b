import { z } from 'zod';
import { senderText, storedId } from '../text';
import { maybe } from './fields';

export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;

/** The call an event is about, as the provider identifies it; unknown keys are kept. */
export const CallSchema = z.looseObject({
  provider_call_id: storedId,
  agent_id: storedId,
  direction: maybe(z.enum(CALL_DIRECTIONS)),
  from_number: maybe(senderText),
  to_number: maybe(senderText),
  agent_version: maybe(storedId),
  workflow_id: maybe(storedId),
  customer_id: maybe(storedId),
  metadata: maybe(z.record(senderText, senderText)),
});

export type Call = z.infer<typeof CallSchema>;
