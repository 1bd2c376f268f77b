/**
 * Realistic events of every type, for tests: one inbound support call on Vapi
 * and the tenant's writes around it. Every sample is a valid, normalized
 * StoredEvent, so it survives zod parsing and an Avro round trip unchanged.
 */
import {
  CURRENT_EVENT_VERSION,
  isTenantEventType,
  type Call,
  type DeadLetter,
  type Delivery,
  type EventData,
  type EventType,
  type StoredEvent,
  type StoredEventOf,
} from '@earshot/contracts';
import { PROVIDER_SAMPLES } from './sample-provider-data';
import { TENANT_SAMPLES } from './sample-tenant-data';

export const SAMPLE_TENANT = '7b0c6a52-4f0e-4c59-9a57-0d5c1a9e3b11';
export const SAMPLE_CALL_STARTED_AT = Date.parse('2026-01-08T09:30:00.000Z');

export const SAMPLE_CALL: Call = {
  provider_call_id: '3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21',
  agent_id: 'agent_support',
  direction: 'inbound',
  from_number: '+14155550123',
  to_number: '+14155550199',
  agent_version: 'v42',
  workflow_id: 'wf_billing',
  customer_id: 'cus_1029',
  metadata: { campaign: 'spring-renewals', locale: 'en-US' },
};

type Envelope = Pick<StoredEvent, 'version' | 'idempotency_key' | 'occurred_at' | 'received_at' | 'tenant' | 'provider'>;

export type SampleOverrides<T extends EventType> = Partial<Envelope> & {
  /** Merged into the sample call; null for an event about no call. */
  call?: Partial<Call> | null;
  /** Merged into the sample data; unknown keys are kept, as a sender's would be. */
  data?: Partial<EventData<T>>;
  [unknownKey: string]: unknown;
};

const iso = (ms: number) => new Date(ms).toISOString();

const SAMPLES: { readonly [T in EventType]: { readonly at: number; readonly data: EventData<T> } } = {
  ...PROVIDER_SAMPLES,
  ...TENANT_SAMPLES,
  // Two hours after the customer's feedback, the last event Earshot saw.
  'call.abandoned': { at: 7_500_000, data: { silent_since: iso(SAMPLE_CALL_STARTED_AT + 300_000), abandon_after_ms: 7_200_000 } },
};

/** A sample event of `type`, with `overrides` merged in (call and data field by field). */
export function sampleEvent<T extends EventType>(type: T, overrides: SampleOverrides<T> = {}): StoredEventOf<T> {
  const { call, data, ...envelope } = overrides;
  const content: { readonly at: number; readonly data: object } = SAMPLES[type];
  const occurredAt = SAMPLE_CALL_STARTED_AT + content.at;
  const aboutCall = !isTenantEventType(type);
  const event = {
    type,
    version: CURRENT_EVENT_VERSION,
    idempotency_key: `${SAMPLE_CALL.provider_call_id}:${type}`,
    occurred_at: iso(occurredAt),
    received_at: iso(occurredAt + 240),
    tenant: SAMPLE_TENANT,
    provider: aboutCall ? 'vapi' : 'earshot',
    ...envelope,
    call: call === null || (call === undefined && !aboutCall) ? null : { ...SAMPLE_CALL, ...call },
    data: { ...content.data, ...data },
  };
  // TypeScript cannot tie the generic `type` to the union member; the samples tables are typed per event type.
  return event as unknown as StoredEventOf<T>;
}

export function sampleDeadLetter(overrides: Partial<DeadLetter> = {}): DeadLetter {
  return {
    id: '0e7c3b9a-5f0d-4e2a-9a61-3c1f8b2d4e77',
    tenant: SAMPLE_TENANT,
    provider: 'vapi',
    received_at: iso(SAMPLE_CALL_STARTED_AT + 8_500),
    source: 'gateway',
    reason: 'payload does not match the event contract',
    fields: [{ path: 'call.agent_id', message: 'Invalid input: expected string, received undefined' }],
    body: Buffer.from('{"type":"call.started","version":"2026-01-01","call":{"provider_call_id":"3f6b0c5e"}}'),
    event_type: 'call.started',
    idempotency_key: null,
    topic: null,
    partition: null,
    offset: null,
    sealed_with: null,
    ...overrides,
  };
}

export function sampleDelivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: '9a4d2c1e-7b3f-4e8a-8c5d-1f2e3a4b5c6d',
    time: iso(SAMPLE_CALL_STARTED_AT + 2_740),
    tenant: SAMPLE_TENANT,
    provider: 'vapi',
    event_type: 'call.started',
    idempotency_key: `${SAMPLE_CALL.provider_call_id}:call.started`,
    outcome: 'accepted',
    http_status: 202,
    duration_ms: 14,
    event_id: '3:18342',
    reason: null,
    ...overrides,
  };
}
