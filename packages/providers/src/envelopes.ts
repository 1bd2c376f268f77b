import type { z } from 'zod';
import { CURRENT_EVENT_VERSION, jsonValue, type CallSchema, type EVENT_DATA_SCHEMAS, type ProviderEventType, type ProviderName } from '@earshot/contracts';
import { callIdOf } from '@earshot/events';

export type CallInput = z.input<typeof CallSchema>;
/** Our event types a provider delivery can become: the provider events, and outcomes from its analysis. */
export type MappedType = ProviderEventType | 'outcome.recorded';
type DataOf<T extends MappedType> = z.input<(typeof EVENT_DATA_SCHEMAS)[T]>;

/** Where an event came from, kept beside it (in the stored event's extensions): the provider's names and what it sent. */
export interface EventSource {
  provider: ProviderName;
  connection_id: string;
  /** The provider's own name of what it sent: `call_ended`, `end-of-call-report`, `completed`. */
  event: string;
  /** The whole payload, on the first event of a delivery. */
  payload?: unknown;
  /** The provider's item this event was made from (an utterance, a message, a tool call). */
  item?: unknown;
}

/** An envelope as a mapping makes it; the intake validates it like any other. */
export interface ProviderEnvelope {
  type: MappedType;
  version: typeof CURRENT_EVENT_VERSION;
  idempotency_key: string;
  occurred_at: string;
  call?: CallInput;
  data: Record<string, unknown>;
  source: EventSource;
}

/**
 * The events one delivery becomes, all about one call. Keys are the
 * provider's ids (`retell:<call id>:call.ended`), so a retry, a replay or
 * another delivery saying the same thing (Retell repeats the transcript in
 * call_ended and call_analyzed) is one event, taken once.
 */
export class CallEvents {
  readonly envelopes: ProviderEnvelope[] = [];

  constructor(
    private readonly base: { provider: ProviderName; connectionId: string; event: string; payload: unknown },
    private readonly call: CallInput,
  ) {}

  add<T extends MappedType>(type: T, key: string, at: Date, data: DataOf<T>, item?: unknown): this {
    return this.addDeclared(type, key, at, data, item);
  }

  /** An event whose data the sender shaped itself (a declared mapping): the intake checks it against the type's schema. */
  addDeclared(type: MappedType, key: string, at: Date, data: Record<string, unknown>, item?: unknown): this {
    const source: EventSource = { provider: this.base.provider, connection_id: this.base.connectionId, event: this.base.event };
    if (this.envelopes.length === 0) source.payload = this.base.payload;
    if (item !== undefined) source.item = item;
    const envelope: ProviderEnvelope = {
      type,
      version: CURRENT_EVENT_VERSION,
      idempotency_key: `${this.base.provider}:${this.call.provider_call_id}:${key}`,
      occurred_at: at.toISOString(),
      data,
      source,
    };
    // Outcomes name their call in data: an outcome is the tenant's kind of event, not one of the call's.
    if (type !== 'outcome.recorded') envelope.call = this.call;
    this.envelopes.push(envelope);
    return this;
  }

  /**
   * What the provider's analysis concluded (success, sentiment, a collected
   * field), as an outcome of the call: one per call and name.
   */
  outcome(tenantId: string, name: string, value: unknown, at: Date, item?: unknown): this {
    if (value === undefined || value === null || value === '') return this;
    const { provider } = this.base;
    const providerCallId = this.call.provider_call_id;
    return this.add(
      'outcome.recorded',
      `outcome:${name}`,
      at,
      {
        outcome_id: `${provider}:${providerCallId}:${name}`,
        call_id: callIdOf(tenantId, provider, providerCallId),
        agent: this.call.agent_id,
        outcome_type: name,
        value: typeof value === 'string' ? value : JSON.stringify(value),
        source: provider,
      },
      item,
    );
  }
}

/** Whole milliseconds for a measurement in milliseconds; null when absent or not a finite non-negative number. */
export function ms(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  return Math.min(Math.round(value), 2_147_483_647);
}

/** Whole milliseconds for a measurement in seconds. */
export function msOfSeconds(value: unknown): number | null {
  return typeof value === 'number' ? ms(value * 1000) : null;
}

/** A time in epoch milliseconds, seconds or ISO 8601 as a Date; `fallback` when absent or unreadable. */
export function timeOf(value: unknown, unit: 'ms' | 's' | 'iso', fallback: Date): Date {
  const at =
    typeof value === 'number' ? new Date(unit === 's' ? value * 1000 : value) : typeof value === 'string' && unit === 'iso' ? new Date(value) : fallback;
  return Number.isNaN(at.getTime()) ? fallback : at;
}

/** The string values of a provider's free-form object, for the call's metadata (the rest stays in the kept payload). */
export function stringValues(value: unknown): Record<string, string> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const kept = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return kept.length > 0 ? Object.fromEntries(kept) : null;
}

/** A tool's arguments or result as JSON when the provider sent them as JSON text, else the text itself. */
export function jsonOrText(value: unknown): z.output<typeof jsonValue> | null {
  if (typeof value !== 'string') return asJson(value);
  try {
    return asJson(JSON.parse(value));
  } catch {
    return value;
  }
}

/** A value the provider sent, as the JSON our events keep (structured data, tool results); null when absent. */
export function asJson(value: unknown): z.output<typeof jsonValue> | null {
  if (value === undefined) return null;
  const parsed = jsonValue.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A non-empty string, or null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** A short, stable digest of a piece of text, for keys of items that grow (a transcript updated while it is spoken). */
export function digest(value: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}
