import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callIdOf } from './call-id';
import type { DataKey } from './field-sealing';
import { SAMPLE_CALL, SAMPLE_TENANT, sampleEvent } from './samples';
import { sealingKeys, type EventSealing } from './sealing-keys';

/** A key store that makes one key per call id and one for the tenant, and remembers what it was asked for. */
function keyStore(): EventSealing & { asked: string[][] } {
  const keys = new Map<string, DataKey>();
  const keyOf = (name: string): DataKey => {
    const key = keys.get(name) ?? { id: `dk_${name}`, key: randomBytes(32) };
    keys.set(name, key);
    return key;
  };
  const asked: string[][] = [];
  return {
    asked,
    forTenant: async (tenantId) => keyOf(`tenant-${tenantId}`),
    forCalls: async (_tenantId, callIds) => {
      asked.push([...callIds]);
      return new Map(callIds.map((id) => [id, keyOf(id)]));
    },
  };
}

const sender = { tenantId: SAMPLE_TENANT, provider: 'vapi' };
const callId = callIdOf(SAMPLE_TENANT, 'vapi', SAMPLE_CALL.provider_call_id);

describe('sealingKeys', () => {
  it('seals an event of a call with its call’s key, by the id the API names the call', async () => {
    const [key] = await sealingKeys(keyStore(), sender, [sampleEvent('transcript.final')]);
    expect(key?.id).toBe(`dk_${callId}`);
  });

  it('seals an outcome with the key of the call it names, as the gateway seals the call’s own events', async () => {
    const store = keyStore();
    const outcome = sampleEvent('outcome.recorded', { provider: 'earshot-api', data: { call_id: callId } });
    const [fromApi, fromGateway] = await sealingKeys(store, sender, [outcome, sampleEvent('call.started')]);
    expect(fromApi?.id).toBe(`dk_${callId}`);
    expect(fromApi).toBe(fromGateway);
  });

  it('takes an outcome’s call id in lowercase, the case erasure looks its key up by', async () => {
    const store = keyStore();
    const id = randomUUID();
    const [key] = await sealingKeys(store, sender, [sampleEvent('outcome.recorded', { data: { call_id: id.toUpperCase() } })]);
    expect(key?.id).toBe(`dk_${id}`);
  });

  it('seals an event about no call with its tenant’s key', async () => {
    const store = keyStore();
    const keys = await sealingKeys(store, sender, [sampleEvent('deployment.recorded'), sampleEvent('incident.created')]);
    expect(keys.map((k) => k?.id)).toEqual([`dk_tenant-${SAMPLE_TENANT}`, `dk_tenant-${SAMPLE_TENANT}`]);
    expect(store.asked).toEqual([]);
  });
});

/** A refused envelope is sealed into its dead letter by the same rule: its call's key when it names one the way a valid event would. */
describe('sealingKeys of refused envelopes', () => {
  const tenantKey = `dk_tenant-${SAMPLE_TENANT}`;
  const about = (providerCallId: unknown) => ({ type: 'call.started', occurred_at: 'yesterday', call: { provider_call_id: providerCallId } });

  it('seals an envelope that names its call with that call’s key, the one its valid events are sealed with', async () => {
    const store = keyStore();
    const [refused, valid] = await sealingKeys(store, sender, [about(SAMPLE_CALL.provider_call_id), sampleEvent('call.started')]);
    expect(refused?.id).toBe(`dk_${callId}`);
    expect(refused).toBe(valid);
    expect(store.asked).toEqual([[callId, callId]]);
  });

  it('seals a refused outcome with the key of the call its data names, in lowercase, whatever else is wrong with it', async () => {
    const id = randomUUID();
    const [key] = await sealingKeys(keyStore(), sender, [{ type: 'outcome.recorded', version: 'soon', data: { call_id: id.toUpperCase() } }]);
    expect(key?.id).toBe(`dk_${id}`);
  });

  it('seals with the tenant’s key what names no call the contracts would take', async () => {
    const store = keyStore();
    const refused = [
      undefined,
      'not an object',
      [about(SAMPLE_CALL.provider_call_id)],
      { type: 'call.started' },
      about(42),
      about(''),
      about('x'.repeat(256)),
      about('nul\u0000inside'),
      about('lone \uD800 surrogate'),
      { type: 'outcome.recorded', call: SAMPLE_CALL, data: { call_id: 7 } },
    ];
    const keys = await sealingKeys(store, sender, refused);
    expect(keys.map((k) => k?.id)).toEqual(refused.map(() => tenantKey));
    expect(store.asked).toEqual([]);
  });
});
