import { z } from 'zod';
import { senderText, storedId } from '../text';
import { jsonValue, maybe, nonNegativeInt } from './fields';

export const HANDOFF_TARGET_KINDS = ['agent', 'human'] as const;
export const ERROR_COMPONENTS = ['asr', 'llm', 'tts', 'telephony', 'other'] as const;

const toolCall = {
  tool_call_id: storedId,
  name: storedId,
  arguments: maybe(jsonValue),
  turn_id: maybe(senderText),
};

const handoff = {
  handoff_id: storedId,
  target: storedId,
  target_kind: maybe(z.enum(HANDOFF_TARGET_KINDS)),
  reason: maybe(senderText),
};

/** Contents of what the agent does during a call: tool calls, workflow steps, handoffs and the errors its vendors report. */
export const TRACE_DATA = {
  'tool.call.started': z.looseObject(toolCall),
  'tool.call.completed': z.looseObject({
    ...toolCall,
    result: maybe(jsonValue),
    duration_ms: maybe(nonNegativeInt),
  }),
  'tool.call.failed': z.looseObject({
    ...toolCall,
    error: maybe(senderText),
    duration_ms: maybe(nonNegativeInt),
  }),
  'workflow.state.changed': z.looseObject({
    from_state: maybe(senderText),
    to_state: storedId,
    node: maybe(senderText),
    trigger: maybe(senderText),
  }),
  'handoff.initiated': z.looseObject(handoff),
  'handoff.completed': z.looseObject({
    ...handoff,
    wait_ms: maybe(nonNegativeInt),
    accepted_by: maybe(senderText),
  }),
  'provider.error.received': z.looseObject({
    component: z.enum(ERROR_COMPONENTS),
    provider_error_code: maybe(senderText),
    message: maybe(senderText),
    vendor: maybe(senderText),
    http_status: maybe(nonNegativeInt),
    retryable: maybe(z.boolean()),
  }),
} as const;
