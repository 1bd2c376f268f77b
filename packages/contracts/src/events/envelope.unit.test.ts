import { describe, expect, it } from 'vitest';
import { DeadLetterSchema } from './dead-letter';
import { DeliverySchema } from './delivery';
import { IncomingEventSchema, StoredEventSchema, receiveEvent } from './envelope';
import { EARSHOT_EVENT_TYPES, EVENT_TYPES, PROVIDER_EVENT_TYPES, TENANT_EVENT_TYPES } from './event-types';

function agentResponse(patch: { call?: Record<string, unknown>; data?: Record<string, unknown>; [key: string]: unknown } = {}) {
  const { call, data, ...top } = patch;
  return {
    type: 'agent.response.generated',
    version: '2026-01-01',
    idempotency_key: 'vapi:3f6b0c5e:turn_1',
    occurred_at: '2026-01-08T10:30:08.4+01:00',
    call: { provider_call_id: '3f6b0c5e', agent_id: 'agent_support', ...call },
    data: { turn_id: 'turn_1', latency: { asr_ms: 180, llm_ms: 420, tts_ms: 210, total_ms: 960 }, ...data },
    ...top,
  };
}

function issuePaths(input: unknown): string[] {
  const result = IncomingEventSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('event types', () => {
  it('lists the 21 provider types, the 9 tenant types and Earshot’s call.abandoned, once each', () => {
    expect(PROVIDER_EVENT_TYPES).toHaveLength(21);
    expect(TENANT_EVENT_TYPES).toHaveLength(9);
    expect(EARSHOT_EVENT_TYPES).toEqual(['call.abandoned']);
    expect(new Set(EVENT_TYPES).size).toBe(31);
  });

  it('takes no call.abandoned from a sender: only Earshot concludes a call was abandoned', () => {
    const input = { ...agentResponse(), type: 'call.abandoned', data: { silent_since: '2026-01-08T09:30:08.400Z', abandon_after_ms: 60_000 } };
    expect(issuePaths(input)).toEqual(['type']);
    expect(StoredEventSchema.safeParse({ ...input, tenant: 't', provider: 'vapi', received_at: '2026-01-08T11:30:08.400Z' }).success).toBe(true);
  });
});

describe('incoming event envelope', () => {
  it('fills left-out optional fields with null and normalizes occurred_at to UTC milliseconds', () => {
    const event = IncomingEventSchema.parse(agentResponse());
    if (event.type !== 'agent.response.generated') throw new Error('wrong member');
    expect(event.occurred_at).toBe('2026-01-08T09:30:08.400Z');
    expect(event.call.direction).toBeNull();
    expect(event.call.metadata).toBeNull();
    expect(event.data.text).toBeNull();
    expect(event.data.interrupted).toBeNull();
  });

  it('keeps unknown keys at every level', () => {
    const event = IncomingEventSchema.parse(
      agentResponse({
        trace_id: 't-1',
        call: { sip_call_id: 'abc@pbx' },
        data: { vad_ms: 40, latency: { asr_ms: 1, llm_ms: 2, tts_ms: 3, total_ms: 9, network_ms: 3 } },
      }),
    );
    expect(event).toMatchObject({ trace_id: 't-1', call: { sip_call_id: 'abc@pbx' }, data: { vad_ms: 40, latency: { network_ms: 3 } } });
  });

  it('names call.agent_id when it is missing', () => {
    const input = agentResponse();
    const { agent_id: _left, ...call } = input.call;
    expect(issuePaths({ ...input, call })).toEqual(['call.agent_id']);
  });

  it('names type when the type is unknown', () => {
    expect(issuePaths(agentResponse({ type: 'call.teleported' }))).toEqual(['type']);
  });

  it('names version when the version is not supported', () => {
    expect(issuePaths(agentResponse({ version: '2025-01-01' }))).toEqual(['version']);
  });

  it('names each mistyped latency part', () => {
    const latency = { asr_ms: '180', llm_ms: 420.5, tts_ms: -1, total_ms: 960 };
    expect(issuePaths(agentResponse({ data: { latency } }))).toEqual(['data.latency.asr_ms', 'data.latency.llm_ms', 'data.latency.tts_ms']);
  });

  it('names a latency record left out', () => {
    const input = agentResponse();
    const { latency: _left, ...data } = input.data;
    expect(issuePaths({ ...input, data })).toEqual(['data.latency']);
  });

  it('rejects an occurred_at without an offset or that is no date', () => {
    expect(issuePaths(agentResponse({ occurred_at: '2026-01-08T10:30:08' }))).toEqual(['occurred_at']);
    expect(issuePaths(agentResponse({ occurred_at: '2026-02-30T10:30:08Z' }))).toEqual(['occurred_at']);
  });

  it('requires the call of a provider event but not of a tenant event', () => {
    const { call: _left, ...withoutCall } = agentResponse();
    expect(issuePaths(withoutCall)).toEqual(['call']);
    const outcome = IncomingEventSchema.parse({
      type: 'outcome.recorded',
      version: '2026-01-01',
      idempotency_key: 'out_7c2e',
      occurred_at: '2026-01-08T10:30:00Z',
      data: { outcome_id: 'out_7c2e', call_id: '3f6b0c5e', outcome_type: 'sale' },
    });
    expect(outcome.call).toBeNull();
  });
});

describe('stored event', () => {
  it('is the incoming event with the receipt, which overrides what the sender claimed', () => {
    const incoming = IncomingEventSchema.parse(agentResponse({ tenant: 'someone-else' }));
    const stored = receiveEvent(incoming, { tenant: 'tenant-1', provider: 'vapi', received_at: '2026-01-08T09:30:08.650Z' });
    expect(StoredEventSchema.parse(stored)).toEqual(stored);
    expect(stored.tenant).toBe('tenant-1');
  });

  it('keeps a plain object when the sender sent a __proto__ key', () => {
    const sent = JSON.parse(`{"__proto__": {"tenant": "polluted", "isAdmin": true}, ${JSON.stringify(agentResponse()).slice(1)}`) as unknown;
    const stored = receiveEvent(IncomingEventSchema.parse(sent), { tenant: 'tenant-1', provider: 'vapi', received_at: '2026-01-08T09:30:08.650Z' });
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect('isAdmin' in stored).toBe(false);
  });

  it('requires the receipt', () => {
    const result = StoredEventSchema.safeParse(IncomingEventSchema.parse(agentResponse()));
    expect(result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'))).toEqual(['tenant', 'provider', 'received_at']);
  });
});

describe('dead letters and deliveries', () => {
  it('parse with nulls for what is not known', () => {
    const deadLetter = DeadLetterSchema.parse({
      id: 'dl-1',
      received_at: '2026-01-08T09:30:08.650Z',
      source: 'gateway',
      reason: 'not JSON',
      body: Buffer.from([0xff, 0x00]),
    });
    expect(deadLetter).toMatchObject({ tenant: null, fields: [], topic: null, offset: null });
    const delivery = DeliverySchema.safeParse({ id: 'd-1', time: '2026-01-08T09:30:08Z', tenant: 't', outcome: 'lost', http_status: 202, duration_ms: 3 });
    expect(delivery.success ? [] : delivery.error.issues.map((issue) => issue.path.join('.'))).toEqual(['outcome']);
  });
});
