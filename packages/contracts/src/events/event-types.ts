import { z } from 'zod';

/** Events voice providers (and agents) send about calls: the spec's twenty plus call.completed. */
export const PROVIDER_EVENT_TYPES = [
  'call.started',
  'call.ringing',
  'call.answered',
  'call.ended',
  'call.transferred',
  'call.failed',
  'audio.stream.started',
  'audio.stream.stopped',
  'transcript.partial',
  'transcript.final',
  'agent.response.generated',
  'tool.call.started',
  'tool.call.completed',
  'tool.call.failed',
  'workflow.state.changed',
  'handoff.initiated',
  'handoff.completed',
  'recording.available',
  'customer.feedback.submitted',
  'provider.error.received',
  'call.completed',
] as const;

/** The tenant's own writes, appended to the same log; they need not be about one call. */
export const TENANT_EVENT_TYPES = [
  'outcome.recorded',
  'incident.created',
  'incident.updated',
  'deployment.recorded',
  'alert.fired',
  'alert.resolved',
  'alert.rule.changed',
  'invoice.issued',
  'billing.plan.changed',
] as const;

/**
 * What Earshot itself concludes about a call and appends to the log, so a
 * replay reaches the same conclusion: a call whose provider fell silent is
 * abandoned. Never taken in from a sender.
 */
export const EARSHOT_EVENT_TYPES = ['call.abandoned'] as const;

export const EVENT_TYPES = [...PROVIDER_EVENT_TYPES, ...TENANT_EVENT_TYPES, ...EARSHOT_EVENT_TYPES] as const;

export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];
export type TenantEventType = (typeof TENANT_EVENT_TYPES)[number];
export type EarshotEventType = (typeof EARSHOT_EVENT_TYPES)[number];
export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeSchema = z.enum(EVENT_TYPES);

const tenantEventTypes: ReadonlySet<string> = new Set(TENANT_EVENT_TYPES);

export function isTenantEventType(type: EventType): type is TenantEventType {
  return tenantEventTypes.has(type);
}
