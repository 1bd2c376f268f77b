import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IncomingEventSchema, VapiCredentialsSchema } from '@earshot/contracts';
import { PROVIDER_ADAPTERS } from '../adapters';
import { mappingContext, vapiCall } from '../fixtures';

const START = Date.parse('2026-03-02T10:00:00Z');
const { deliveries } = vapiCall('call_vapi_77', START);
const mapAll = () =>
  deliveries.flatMap((delivery) => {
    const mapping = PROVIDER_ADAPTERS.vapi.map(JSON.parse(JSON.stringify(delivery)), mappingContext());
    if (mapping.kind !== 'events') throw new Error(`${delivery.message.type}: ${mapping.kind}`);
    return mapping.envelopes.map((e) => IncomingEventSchema.parse(e));
  });

describe('Vapi mapping', () => {
  const events = mapAll();
  const keys = events.map((e) => e.idempotency_key);

  it('status updates are the lifecycle; the first starts the call, the rest repeat its key', () => {
    const started = events.filter((e) => e.type === 'call.started');
    expect(new Set(started.map((e) => e.idempotency_key)).size).toBe(1);
    expect(started[0]?.occurred_at).toBe(new Date(START - 1_000).toISOString());
    expect(events.find((e) => e.type === 'call.ringing')).toBeDefined();
    expect(events.find((e) => e.type === 'call.answered')?.data).toMatchObject({ telephony_call_id: 'CA9f8e7d6c5b4a39281706f5e4d3c2b1a0' });
    expect(events[0]?.call).toMatchObject({
      provider_call_id: 'call_vapi_77',
      agent_id: 'asst_7d2e4b9c',
      agent_version: 'v3',
      direction: 'inbound',
      from_number: '+14155550142',
      to_number: '+14155550100',
      customer_id: 'crm_8812',
    });
  });

  it('a live final transcript and the report’s message are one event; the partial shares its turn', () => {
    const user = events.filter((e) => (e.type === 'transcript.final' || e.type === 'transcript.partial') && e.data.turn_id === 'm2');
    expect(user.map((e) => e.type).sort()).toEqual(['transcript.final', 'transcript.final', 'transcript.partial']);
    const finals = user.filter((e) => e.type === 'transcript.final');
    expect(finals[0]?.idempotency_key).toBe(finals[1]?.idempotency_key);
    expect(finals[1]?.data).toMatchObject({ speaker: 'customer', text: 'What is my order status?', start_ms: 3_000, end_ms: 4_600 });
  });

  it('turnLatencies are agent turns: transcriber, model, voice, endpointing, total', () => {
    expect(events.filter((e) => e.type === 'agent.response.generated').map((e) => e.data)).toEqual([
      expect.objectContaining({
        turn_id: 'turn-001',
        latency: { asr_ms: 180, llm_ms: 421, tts_ms: 190, total_ms: 1_041 },
        eou_delay_ms: 250,
        text: 'Your order shipped yesterday.',
      }),
      expect.objectContaining({ turn_id: 'turn-002', latency: { asr_ms: 160, llm_ms: 380, tts_ms: 210, total_ms: 990 }, text: 'You are welcome, goodbye.' }),
    ]);
  });

  it('tool calls from the live message and the report are the same events; results complete them', () => {
    expect(keys.filter((k) => k === 'vapi:call_vapi_77:tool:call_tool_41:started')).toHaveLength(2);
    expect(events.find((e) => e.type === 'tool.call.completed')?.data).toMatchObject({
      tool_call_id: 'call_tool_41',
      name: 'lookup_order',
      result: { status: 'shipped' },
    });
  });

  it('the report: cost, success, summary, recordings, costs kept, and the analysis as outcomes', () => {
    expect(events.find((e) => e.type === 'call.completed')?.data).toMatchObject({
      success: true,
      cost_usd: 0.1184,
      duration_ms: 12_400,
      recording_url: 'https://storage.vapi.ai/call_vapi_77-mono.wav',
      structured_data: { order: 'A-1009', resolved: true },
    });
    expect((events.find((e) => e.type === 'call.completed')?.data as { costs?: unknown[] }).costs).toHaveLength(5);
    expect(events.filter((e) => e.type === 'recording.available').map((e) => e.data.channels)).toEqual([1, 2]);
    expect(events.filter((e) => e.type === 'outcome.recorded').map((e) => [e.data.outcome_type, e.data.value])).toEqual([
      ['success_evaluation', 'true'],
      ['structured.order', 'A-1009'],
      ['structured.resolved', 'true'],
    ]);
  });

  it('an interruption and a hand-off to another assistant', () => {
    expect(events.find((e) => e.type === 'workflow.state.changed')?.data).toMatchObject({ to_state: 'user_interrupted', node: 'turn_2' });
    expect(events.find((e) => e.type === 'handoff.completed')?.data).toMatchObject({ target: 'Billing', target_kind: 'agent' });
  });

  it('keeps a message type it does not map as unknown', () => {
    expect(PROVIDER_ADAPTERS.vapi.map({ message: { type: 'speech-update', status: 'started', role: 'assistant' } }, mappingContext())).toMatchObject({
      kind: 'unknown',
      eventName: 'speech-update',
    });
  });
});

describe('Vapi server URL credentials', () => {
  const body = Buffer.from(JSON.stringify(deliveries[0]));
  const now = new Date();
  const request = (headers: Record<string, string>) => ({ method: 'POST', url: 'https://e.example/hook?x=1', headers, body, receivedAt: now });
  const verify = (credential: unknown, headers: Record<string, string>) =>
    PROVIDER_ADAPTERS.vapi.verifier([VapiCredentialsSchema.parse(credential)])(request(headers));

  it('HMAC as the plan says: defaults, then sha512 base64 with a prefix, a custom format and headers', () => {
    const ts = String(Math.floor(now.getTime() / 1000));
    const hex = createHmac('sha256', 'vapi-secret-1').update(`${ts}.`).update(body).digest('hex');
    expect(verify({ type: 'hmac', secretKey: 'vapi-secret-1' }, { 'x-signature': hex, 'x-timestamp': ts })).toMatchObject({ ok: true });
    expect(verify({ type: 'hmac', secretKey: 'vapi-secret-1' }, { 'x-signature': hex, 'x-timestamp': String(Number(ts) - 301) })).toMatchObject({ ok: false });
    const plan = {
      type: 'hmac',
      secretKey: 'vapi-secret-2',
      algorithm: 'sha512',
      signatureHeader: 'X-Vapi-Signature',
      timestampHeader: 'X-Vapi-Time',
      signaturePrefix: 'sha512=',
      signatureEncoding: 'base64',
      payloadFormat: '{method}:{url}:{timestamp}:{body}',
    };
    const ms = String(now.getTime());
    const b64 = createHmac('sha512', 'vapi-secret-2').update(`POST:https://e.example/hook?x=1:${ms}:`).update(body).digest('base64');
    expect(verify(plan, { 'x-vapi-signature': `sha512=${b64}`, 'x-vapi-time': ms })).toMatchObject({ ok: true });
    expect(verify(plan, { 'x-vapi-signature': `sha512=${b64}`, 'x-vapi-time': String(now.getTime() + 1) })).toMatchObject({ ok: false });
  });

  it('a bearer token, with or without the prefix, and the legacy X-Vapi-Secret', () => {
    expect(verify({ type: 'bearer', token: 'tok_0123456789' }, { authorization: 'Bearer tok_0123456789' })).toMatchObject({ ok: true });
    expect(verify({ type: 'bearer', token: 'tok_0123456789' }, { authorization: 'tok_0123456789' })).toMatchObject({ ok: false });
    expect(verify({ type: 'bearer', token: 'tok_0123456789', headerName: 'X-Auth', bearerPrefixEnabled: false }, { 'x-auth': 'tok_0123456789' })).toMatchObject(
      { ok: true },
    );
    expect(verify({ type: 'secret', secret: 'legacy-secret-9' }, { 'x-vapi-secret': 'legacy-secret-9' })).toMatchObject({ ok: true });
    expect(verify({ type: 'secret', secret: 'legacy-secret-9' }, { 'x-vapi-secret': 'legacy-secret-8' })).toMatchObject({ ok: false });
  });
});
