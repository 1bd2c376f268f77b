import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '@earshot/auth';
import { CURRENT_EVENT_VERSION, EventMappingSchema, IncomingEventSchema } from '@earshot/contracts';
import { PROVIDER_ADAPTERS } from '../adapters';
import { mappingContext } from '../fixtures';

const secret = newWebhookSecret();
const body = JSON.stringify({
  type: 'call.started',
  version: CURRENT_EVENT_VERSION,
  occurred_at: '2026-03-02T10:00:00.000Z',
  call: { provider_call_id: 'c1', agent_id: 'a1' },
  data: {},
});

describe('Standard Webhooks signatures', () => {
  const verifier = PROVIDER_ADAPTERS['standard-webhooks'].verifier([{ secret }]);
  const request = (headers: Record<string, string>, raw = body, receivedAt = new Date()) => ({
    method: 'POST',
    url: 'https://e.example/x',
    headers,
    body: Buffer.from(raw),
    receivedAt,
  });

  it('verifies what the standardwebhooks library signs with a secret Earshot generated', () => {
    const at = new Date();
    const signature = new Webhook(secret).sign('msg_2Kq8', at, body);
    const headers = { 'webhook-id': 'msg_2Kq8', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'call.started' });
    expect(verifier(request(headers))).toMatchObject({ ok: true, deliveryId: 'msg_2Kq8' });
    expect(verifier(request({ ...headers, 'webhook-signature': `v1,bm90IGl0 ${signature}` }))).toMatchObject({ ok: true });
    expect(verifier(request(headers, JSON.stringify(JSON.parse(body), null, 2)))).toMatchObject({ ok: false });
    expect(verifier(request({ ...headers, 'webhook-id': 'msg_other' }))).toMatchObject({ ok: false });
    expect(verifier(request(headers, body, new Date(at.getTime() + 301_000)))).toMatchObject({ ok: false, reason: expect.stringContaining('5 minutes') });
    expect(PROVIDER_ADAPTERS['standard-webhooks'].verifier([{ secret: newWebhookSecret() }])(request(headers))).toMatchObject({ ok: false });
  });
});

describe('Standard Webhooks payloads', () => {
  it('Earshot envelopes as sent, the message id keying one that brought no idempotency_key', () => {
    const mapping = PROVIDER_ADAPTERS['standard-webhooks'].map(JSON.parse(body), mappingContext({ deliveryKey: 'msg_2Kq8' }));
    expect(mapping).toMatchObject({ kind: 'envelopes', eventName: 'call.started', envelopes: [{ idempotency_key: 'msg_2Kq8' }] });
    expect(mapping.kind === 'envelopes' && IncomingEventSchema.parse(mapping.envelopes[0])).toMatchObject({ type: 'call.started' });
    const batch = PROVIDER_ADAPTERS['standard-webhooks'].map([JSON.parse(body), JSON.parse(body)], mappingContext({ deliveryKey: 'msg_9' }));
    expect(batch.kind === 'envelopes' && batch.envelopes.map((e) => (e as { idempotency_key: string }).idempotency_key)).toEqual(['msg_9:0', 'msg_9:1']);
  });

  it('the sender’s own JSON through a declared mapping; an event name it does not declare is unknown', () => {
    const mapping = EventMappingSchema.parse({
      type: '/event',
      events: { 'conversation.finished': 'call.ended' },
      providerCallId: '/conversation/id',
      agentId: '/bot',
      occurredAt: '/at',
      data: '/details',
    });
    const sent = {
      event: 'conversation.finished',
      conversation: { id: 'conv_88' },
      bot: 'bot_3',
      at: '2026-03-02T10:04:00Z',
      details: { duration_ms: 240_000 },
    };
    const mapped = PROVIDER_ADAPTERS['standard-webhooks'].map(sent, mappingContext({ mapping, deliveryKey: 'msg_1' }));
    if (mapped.kind !== 'events') throw new Error(mapped.kind);
    expect(IncomingEventSchema.parse(mapped.envelopes[0])).toMatchObject({
      type: 'call.ended',
      idempotency_key: 'standard-webhooks:conv_88:msg_1',
      occurred_at: '2026-03-02T10:04:00.000Z',
      call: { provider_call_id: 'conv_88', agent_id: 'bot_3' },
      data: { duration_ms: 240_000 },
    });
    expect(PROVIDER_ADAPTERS['standard-webhooks'].map({ ...sent, event: 'conversation.paused' }, mappingContext({ mapping }))).toMatchObject({
      kind: 'unknown',
      eventName: 'conversation.paused',
    });
  });
});
