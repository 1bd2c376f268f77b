import { z } from 'zod';
import { storedId } from '../text';
import { jsonValue, maybe, nonNegativeInt } from './fields';

export const HANDOFF_TARGET_KINDS = ['agent', 'human'] as const;
export const ERROR_COMPONENTS = ['asr', 'llm', 'tts', 'telephony', 'other'] as const;

const toolCall = {
  tool_call_id: storedId,
  name: storedId,
  arguments: maybe(jsonValue),
  turn_id: maybe(z.string()),
};

const handoff = {
  handoff_id: storedId,
  target: storedId,
  target_kind: maybe(z.enum(HANDOFF_TARGET_KINDS)),
  reason: maybe(z.string()),
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
    error: maybe(z.string()),
    duration_ms: maybe(nonNegativeInt),
  }),
  'workflow.state.changed': z.looseObject({
    from_state: maybe(z.string()),
    to_state: storedId,
    node: maybe(z.string()),
    trigger: maybe(z.string()),
  }),
  'handoff.initiated': z.looseObject(handoff),
  'handoff.completed': z.looseObject({
    ...handoff,
    wait_ms: maybe(nonNegativeInt),
    accepted_by: maybe(z.string()),
  }),
  'provider.error.received': z.looseObject({
    component: z.enum(ERROR_COMPONENTS),
    provider_error_code: maybe(z.string()),
    message: maybe(z.string()),
    vendor: maybe(z.string()),
    http_status: maybe(nonNegativeInt),
    retryable: maybe(z.boolean()),
  }),
} as const;
