import { describe, expect, it } from 'vitest';
import { sign, verify } from 'retell-sdk';
import { IncomingEventSchema } from '@earshot/contracts';
import { PROVIDER_ADAPTERS } from '../adapters';
import { mappingContext, retellCall } from '../fixtures';

const START = Date.parse('2026-03-02T10:00:00Z');
const { deliveries } = retellCall('call_5f1a9e', START);
const mapped = (event: string) => {
  const delivery = deliveries.find((d) => d.event === event);
  const mapping = PROVIDER_ADAPTERS.retell.map(JSON.parse(JSON.stringify(delivery)), mappingContext());
  if (mapping.kind !== 'events') throw new Error(`${event}: ${mapping.kind}`);
  return mapping.envelopes.map((e) => IncomingEventSchema.parse(e));
};

describe('Retell mapping', () => {
  it('makes every event of the call a valid envelope keyed by Retell’s ids', () => {
    for (const { event } of deliveries) {
      for (const envelope of mapped(event)) expect(envelope.idempotency_key).toMatch(/^retell:call_5f1a9e:/);
    }
  });

  it('call_ended: the end with cost in dollars, the transcript with word timings, tool calls, the node, turns and recordings', () => {
    const events = mapped('call_ended');
    const types = events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'call.started',
        'call.ended',
        'call.transferred',
        'transcript.final',
        'tool.call.started',
        'tool.call.completed',
        'workflow.state.changed',
        'agent.response.generated',
        'recording.available',
      ]),
    );
    expect(events.find((e) => e.type === 'call.ended')?.data).toMatchObject({ ended_reason: 'call_transfer', duration_ms: 15_200, cost_usd: 0.125 });
    expect(events.find((e) => e.type === 'transcript.final')?.data).toMatchObject({ turn_id: 'u0', speaker: 'agent', start_ms: 400 });
    expect(events.filter((e) => e.type === 'agent.response.generated').map((e) => e.data)).toEqual([
      expect.objectContaining({ turn_id: 'turn-001', latency: { asr_ms: 140, llm_ms: 390, tts_ms: 200, total_ms: 820 }, knowledge_base_ms: 55 }),
      expect.objectContaining({ turn_id: 'turn-002', latency: { asr_ms: 150, llm_ms: 440, tts_ms: 210, total_ms: 910 } }),
    ]);
    expect(events[0]).toMatchObject({
      call: { provider_call_id: 'call_5f1a9e', agent_id: 'agent_retell_support', agent_version: '7', metadata: { customer_id: 'cust_4412', crm: 'hubspot' } },
    });
  });

  it('keeps the whole payload on the delivery’s first event and each item on its own', () => {
    const events = mapped('call_ended');
    expect((events[0] as { source?: { payload?: unknown } }).source?.payload).toMatchObject({ event: 'call_ended', call: { call_id: 'call_5f1a9e' } });
    expect((events.find((e) => e.type === 'tool.call.started') as { source?: { item?: unknown } }).source?.item).toMatchObject({ tool_call_id: 'tool_8c1e' });
  });

  it('call_analyzed: the report and the analysis as outcomes', () => {
    const events = mapped('call_analyzed');
    expect(events.find((e) => e.type === 'call.completed')?.data).toMatchObject({
      success: true,
      sentiment: 'Positive',
      structured_data: { appointment_moved: true },
    });
    expect(events.filter((e) => e.type === 'outcome.recorded').map((e) => [e.data.outcome_type, e.data.value])).toEqual([
      ['call_successful', 'true'],
      ['user_sentiment', 'Positive'],
      ['in_voicemail', 'false'],
      ['custom.appointment_moved', 'true'],
      ['custom.new_slot', 'thursday 10:00'],
    ]);
  });

  it('an unknown event is kept, not mapped; a call without an id does not fit', () => {
    expect(PROVIDER_ADAPTERS.retell.map({ event: 'chat_started', call: { call_id: 'c', agent_id: 'a' } }, mappingContext())).toMatchObject({
      kind: 'unknown',
      eventName: 'chat_started',
    });
    expect(PROVIDER_ADAPTERS.retell.map({ event: 'call_ended', call: { agent_id: 'a' } }, mappingContext())).toMatchObject({
      kind: 'invalid',
      fields: [{ path: 'call.call_id' }],
    });
  });

  it('verifies what retell-sdk signs, and nothing else', async () => {
    const body = JSON.stringify(deliveries[0]);
    const apiKey = 'key_5f3b2a1c0d9e8f7a6b5c4d3e';
    const signature = await sign(body, apiKey);
    const request = (raw: string, header: string) => ({
      method: 'POST',
      url: 'https://e.example/x',
      headers: { 'x-retell-signature': header },
      body: Buffer.from(raw),
      receivedAt: new Date(),
    });
    const verifier = PROVIDER_ADAPTERS.retell.verifier([{ apiKey }]);
    expect(await verify(body, apiKey, signature)).toBe(true);
    expect(verifier(request(body, signature))).toMatchObject({ ok: true });
    expect(verifier(request(JSON.stringify(JSON.parse(body), null, 2), signature))).toMatchObject({ ok: false });
    expect(PROVIDER_ADAPTERS.retell.verifier([{ apiKey: 'key_other_0000000000' }])(request(body, signature))).toMatchObject({ ok: false });
  });
});
