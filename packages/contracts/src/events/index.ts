export { CALL_DIRECTIONS, CallSchema, type Call } from './call';
export { DEAD_LETTER_SOURCES, DeadLetterSchema, type DeadLetter } from './dead-letter';
export { DELIVERY_OUTCOMES, DeliverySchema, type Delivery, type DeliveryOutcome } from './delivery';
export {
  IncomingEventSchema,
  ReceiptSchema,
  StoredEventSchema,
  receiveEvent,
  type EventData,
  type IncomingEvent,
  type IncomingEventInput,
  type Receipt,
  type StoredEvent,
  type StoredEventOf,
} from './envelope';
export { EVENT_DATA_SCHEMAS } from './event-data';
export {
  EARSHOT_EVENT_TYPES,
  EVENT_TYPES,
  EventTypeSchema,
  PROVIDER_EVENT_TYPES,
  TENANT_EVENT_TYPES,
  isTenantEventType,
  type EarshotEventType,
  type EventType,
  type ProviderEventType,
  type TenantEventType,
} from './event-types';
export { ResponseLatencySchema, SPEAKERS, STREAM_DIRECTIONS } from './conversation-data';
export { ERROR_COMPONENTS, HANDOFF_TARGET_KINDS } from './trace-data';
export { ALERT_COMPARISONS, ALERT_RULE_ACTIONS, ALERT_SEVERITIES, INCIDENT_SEVERITIES, INCIDENT_STATUSES, INVOICE_STATUSES } from './tenant-data';
export { CURRENT_EVENT_VERSION, EVENT_VERSIONS, type EventVersion } from './versions';
export { jsonValue } from './fields';
