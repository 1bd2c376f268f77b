import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import twilio from 'twilio';
import { IncomingEventSchema } from '@earshot/contracts';
import { PROVIDER_ADAPTERS } from '../adapters';
import { formBody, mappingContext, twilioCall } from '../fixtures';

const START = Date.parse('2026-03-02T10:00:00Z');
const { deliveries, recordingSid } = twilioCall('CA0a1b2c3d4e5f60718293a4b5c6d7e8f9', START);
const AUTH_TOKEN = '9f2d4c6b8a0e1f3d5c7b9a1e3f5d7c9b';
const URL = 'https://earshot.example.com/api/v1/webhooks/providers/twilio/0f6c7a9e-1d2b-4c3a-8e5f-6a7b8c9d0e1f';

describe('Twilio mapping', () => {
  const events = deliveries.flatMap((parameters) => {
    const mapping = PROVIDER_ADAPTERS.twilio.map(parameters, mappingContext({ name: 'main line' }));
    if (mapping.kind !== 'events') throw new Error(mapping.kind);
    return mapping.envelopes.map((e) => IncomingEventSchema.parse(e));
  });

  it('status callbacks are the lifecycle, at Twilio’s Timestamp, the connection naming the agent', () => {
    expect(events.map((e) => e.type)).toEqual([
      'call.started',
      'call.started',
      'call.ringing',
      'call.started',
      'call.answered',
      'call.ended',
      'recording.available',
    ]);
    expect(events[0]).toMatchObject({
      occurred_at: new Date(START).toISOString(),
      call: { provider_call_id: 'CA0a1b2c3d4e5f60718293a4b5c6d7e8f9', agent_id: 'main line', direction: 'inbound', from_number: '+14155550161' },
    });
    expect(events.find((e) => e.type === 'call.answered')?.data).toMatchObject({ answered_by: 'human' });
    expect(events.find((e) => e.type === 'call.ended')?.data).toMatchObject({ ended_reason: 'completed', duration_ms: 60_000 });
    expect(events.find((e) => e.type === 'recording.available')?.data).toMatchObject({ recording_id: recordingSid, duration_ms: 59_000, channels: 2 });
  });

  it('a failed call is a failure with Twilio’s codes', () => {
    const mapping = PROVIDER_ADAPTERS.twilio.map({ ...deliveries[0], CallStatus: 'failed', ErrorCode: '32009', SipResponseCode: '503' }, mappingContext());
    expect(mapping.kind === 'events' && mapping.envelopes.map((e) => [e.type, e.data])).toEqual([
      ['call.failed', expect.objectContaining({ error_code: '32009', sip_status_code: 503 })],
      ['call.ended', expect.objectContaining({ ended_reason: 'failed' })],
    ]);
  });
});

describe('X-Twilio-Signature', () => {
  const verifier = PROVIDER_ADAPTERS.twilio.verifier([{ authToken: AUTH_TOKEN }]);
  const request = (url: string, body: string, signature: string, type = 'application/x-www-form-urlencoded') => ({
    method: 'POST',
    url,
    headers: { 'x-twilio-signature': signature, 'content-type': type },
    body: Buffer.from(body),
    receivedAt: new Date(),
  });

  it('verifies what the twilio package signs and validates, over the URL and the sorted parameters', () => {
    const parameters = deliveries[3] as Record<string, string>;
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, URL, parameters);
    expect(twilio.validateRequest(AUTH_TOKEN, signature, URL, parameters)).toBe(true);
    expect(verifier(request(URL, formBody(parameters), signature))).toMatchObject({ ok: true });
    expect(verifier(request(URL, formBody({ ...parameters, CallStatus: 'busy' }), signature))).toMatchObject({ ok: false });
    expect(verifier(request(`${URL}?x=1`, formBody(parameters), signature))).toMatchObject({ ok: false });
    expect(PROVIDER_ADAPTERS.twilio.verifier([{ authToken: 'another-token-000000' }])(request(URL, formBody(parameters), signature))).toMatchObject({
      ok: false,
    });
  });

  it('takes the URL with or without the default port, as the package does', () => {
    const parameters = deliveries[0] as Record<string, string>;
    const withPort = URL.replace('.com/', '.com:443/');
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, withPort, parameters);
    expect(verifier(request(URL, formBody(parameters), signature))).toMatchObject({ ok: true });
  });

  it('a JSON body: the URL’s bodySHA256 must be its SHA-256 (validateRequestWithBody)', () => {
    const body = JSON.stringify(deliveries[1]);
    const url = `${URL}?bodySHA256=${createHash('sha256').update(body).digest('hex')}`;
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, {});
    expect(twilio.validateRequestWithBody(AUTH_TOKEN, signature, url, body)).toBe(true);
    expect(verifier(request(url, body, signature, 'application/json'))).toMatchObject({ ok: true });
    expect(verifier(request(url, body.replace('ringing', 'queued'), signature, 'application/json'))).toMatchObject({ ok: false });
  });
});
