import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { Earshot, WebhookVerificationError } from '../src/index.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const webhooks = new Earshot({ apiKey: 'ear_test_unit', webhookSecret: secret }).webhooks;
const body = JSON.stringify({ type: 'alert.fired', alert: { id: 'al_1', metric: 'latency.total_ms.p95', value: 2_140 } });

describe('webhook verification', () => {
  it('[webhook-verify] accepts what the official standardwebhooks library signs and what sign makes; refuses a changed body, a stale timestamp, a wrong secret', async () => {
    const official = new Webhook(secret);
    const now = new Date();
    const signed = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1_000)),
      'webhook-signature': official.sign('msg_1', now, body),
    };
    expect(await webhooks.verify(body, signed)).toEqual(JSON.parse(body));
    expect(await webhooks.verify(new TextEncoder().encode(body), new Headers(signed))).toEqual(JSON.parse(body));

    const ours = await webhooks.sign(body);
    expect(official.verify(body, { ...ours })).toEqual(JSON.parse(body));
    expect(await webhooks.verify(body, { ...ours })).toEqual(JSON.parse(body));

    await expect(webhooks.verify(body.replace('2140', '2141'), signed)).rejects.toBeInstanceOf(WebhookVerificationError);
    const stale = await webhooks.sign(body, { timestamp: Math.floor(Date.now() / 1_000) - 600 });
    await expect(webhooks.verify(body, { ...stale })).rejects.toThrow(/timestamp/);
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    await expect(webhooks.verify(body, signed, { secret: other })).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(webhooks.verify(body, { 'webhook-id': 'msg_1' })).rejects.toThrow(/missing/);
  });

  it('finds a matching signature among several (a secret rotation signs with both)', async () => {
    const old = await webhooks.sign(body, { id: 'msg_2', secret: `whsec_${randomBytes(24).toString('base64')}` });
    const current = await webhooks.sign(body, { id: 'msg_2', timestamp: Number(old['webhook-timestamp']) });
    const both = { ...current, 'webhook-signature': `${old['webhook-signature']} ${current['webhook-signature']}` };
    expect(await webhooks.verify(body, both)).toEqual(JSON.parse(body));
  });
});
