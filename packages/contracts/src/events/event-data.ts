import type { z } from 'zod';
import { CALL_DATA } from './call-data';
import { CONVERSATION_DATA } from './conversation-data';
import type { EventType } from './event-types';
import { TENANT_DATA } from './tenant-data';
import { TRACE_DATA } from './trace-data';

/** The schema of each event type's `data`; `satisfies` makes a type without one a compile error. */
export const EVENT_DATA_SCHEMAS = {
  ...CALL_DATA,
  ...CONVERSATION_DATA,
  ...TRACE_DATA,
  ...TENANT_DATA,
} as const satisfies Record<EventType, z.ZodType>;
