import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IncomingEventSchema } from '@earshot/contracts';
import { PROVIDER_ADAPTERS } from '../adapters';
import { blandCall, mappingContext } from '../fixtures';

const START = Date.parse('2026-03-02T10:00:00Z');
const { delivery } = blandCall('c8d1e2f3-4a5b-6c7d-8e9f-0a1b2c3d4e5f', START);

describe('Bland mapping', () => {
  const mapping = PROVIDER_ADAPTERS.bland.map(JSON.parse(JSON.stringify(delivery)), mappingContext({ name: 'renewals' }));
  const events = mapping.kind === 'events' ? mapping.envelopes.map((e) => IncomingEventSchema.parse(e)) : [];

  it('the call: started, answered, the transcript and an agent action, the transfer, the end with price and duration', () => {
    expect(events.map((e) => e.type)).toEqual([
      'call.started',
      'call.answered',
      'transcript.final',
      'transcript.final',
      'workflow.state.changed',
      'transcript.final',
      'transcript.final',
      'call.transferred',
      'call.ended',
      'recording.available',
      'call.completed',
      'outcome.recorded',
      'outcome.recorded',
      'outcome.recorded',
      'outcome.recorded',
    ]);
    expect(events[0]).toMatchObject({
      occurred_at: new Date(START).toISOString(),
      call: { provider_call_id: delivery.call_id, agent_id: 'pw_3c9a7e21', direction: 'outbound', to_number: '+14155550177', metadata: { order_id: 'A-2231' } },
    });
    expect(events.find((e) => e.type === 'call.ended')?.data).toMatchObject({ ended_reason: 'ASSISTANT', duration_ms: 95_000, cost_usd: 0.1425 });
    expect(events.find((e) => e.type === 'call.transferred')?.data).toMatchObject({ to: '+14155550199' });
    expect(events.filter((e) => e.type === 'transcript.final').map((e) => e.data.speaker)).toEqual(['agent', 'customer', 'agent', 'customer']);
    expect(events.filter((e) => e.type === 'outcome.recorded').map((e) => [e.data.outcome_type, e.data.value])).toEqual([
      ['disposition', 'TRANSFERRED'],
      ['answered_by', 'human'],
      ['analysis.delivery_confirmed', 'true'],
      ['analysis.window', 'afternoon'],
    ]);
  });

  it('keeps the whole call object on the first event', () => {
    expect((events[0] as { source?: { payload?: unknown } }).source?.payload).toMatchObject({ variables: { customer_name: 'Dana' } });
  });

  it('a body that is not a call object is kept as unknown; a call without its id does not fit', () => {
    expect(PROVIDER_ADAPTERS.bland.map({ event: 'sms' }, mappingContext())).toMatchObject({ kind: 'unknown' });
    expect(PROVIDER_ADAPTERS.bland.map({ status: 'completed' }, mappingContext())).toMatchObject({ kind: 'invalid', fields: [{ path: 'call_id' }] });
  });
});

describe('X-Webhook-Signature', () => {
  const secret = 'bland_whsec_91c2d3e4f5a6b7c8';
  const body = JSON.stringify(delivery);
  const request = (raw: string, signature: string) => ({
    method: 'POST',
    url: 'https://e.example/x',
    headers: { 'x-webhook-signature': signature },
    body: Buffer.from(raw),
    receivedAt: new Date(),
  });
  const verifier = PROVIDER_ADAPTERS.bland.verifier([{ secret }]);
  const sign = (raw: string, key = secret) => createHmac('sha256', key).update(raw).digest('hex');

  it('the hex HMAC-SHA256 of the raw body, as Bland documents it; nothing else', () => {
    expect(verifier(request(body, sign(body)))).toMatchObject({ ok: true, deliveryId: null });
    expect(verifier(request(body, sign(body).toUpperCase()))).toMatchObject({ ok: true });
    expect(verifier(request(JSON.stringify(JSON.parse(body), null, 2), sign(body)))).toMatchObject({ ok: false });
    expect(verifier(request(body, sign(body, 'another_secret_00')))).toMatchObject({ ok: false });
    expect(verifier({ ...request(body, ''), headers: {} })).toMatchObject({ ok: false });
  });
});
