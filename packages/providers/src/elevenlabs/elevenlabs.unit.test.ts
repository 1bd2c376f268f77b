import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ElevenLabsClient } from '@elevenlabs/elevenlabs-js';
import { IncomingEventSchema } from '@earshot/contracts';
import { PROVIDER_ADAPTERS } from '../adapters';
import { elevenLabsConversation, mappingContext } from '../fixtures';

const START = Date.parse('2026-03-02T10:00:00Z');
const { deliveries, failure, audio } = elevenLabsConversation('conv_01jx8k', START);
const mapped = (delivery: unknown) => {
  const mapping = PROVIDER_ADAPTERS.elevenlabs.map(JSON.parse(JSON.stringify(delivery)), mappingContext());
  if (mapping.kind !== 'events') throw new Error(mapping.kind);
  return mapping.envelopes.map((e) => IncomingEventSchema.parse(e));
};

describe('ElevenLabs mapping', () => {
  it('post_call_transcription: the conversation, turns with their metrics, tools, the hand-off and the analysis', () => {
    const events = mapped(deliveries[0]);
    expect(events[0]).toMatchObject({
      type: 'call.started',
      occurred_at: new Date(START).toISOString(),
      call: {
        provider_call_id: 'conv_01jx8k',
        agent_id: 'agent_el_receptionist',
        agent_version: 'agtvrsn_4c2a',
        direction: 'inbound',
        from_number: '+14155550188',
      },
      data: { call_type: 'phone', telephony_provider: 'twilio', telephony_call_id: 'CA55ee66ff77aa88bb99cc00dd11ee22ff' },
    });
    expect(events.find((e) => e.type === 'call.ended')?.data).toMatchObject({
      duration_ms: 42_000,
      cost_usd: 0.0936,
      ended_reason: 'end_call tool was called.',
    });
    expect(events.filter((e) => e.type === 'transcript.final').map((e) => [e.data.speaker, e.data.start_ms])).toEqual([
      ['agent', 0],
      ['customer', 4_000],
      ['agent', 7_000],
      ['agent', 9_000],
      ['customer', 13_000],
      ['agent', 15_000],
    ]);
    expect(events.filter((e) => e.type === 'agent.response.generated').map((e) => e.data.latency)).toEqual([
      { asr_ms: 121, llm_ms: 412, tts_ms: 188, total_ms: 721 },
      { asr_ms: 0, llm_ms: 350, tts_ms: 200, total_ms: 550 },
    ]);
    expect(events.find((e) => e.type === 'tool.call.completed')?.data).toMatchObject({
      tool_call_id: 'req_cal_1',
      result: { slot: 'friday 09:30' },
      duration_ms: 640,
    });
    expect(events.find((e) => e.type === 'handoff.completed')?.data).toMatchObject({ target: 'agent_el_billing', target_kind: 'agent' });
    expect(events.find((e) => e.type === 'customer.feedback.submitted')?.data).toMatchObject({ rating: 4, rating_scale: 5 });
    expect(events.filter((e) => e.type === 'outcome.recorded').map((e) => [e.data.outcome_type, e.data.value])).toEqual([
      ['call_successful', 'success'],
      ['criteria.booked', 'success'],
      ['data.service', 'cleaning'],
    ]);
  });

  it('post_call_audio: a recording with the audio’s size and digest, the audio itself left out of the kept payload', () => {
    const [recording] = mapped(deliveries[1]);
    expect(recording).toMatchObject({ type: 'recording.available', data: { format: 'mp3', size_bytes: Buffer.from(audio, 'base64').length } });
    expect(JSON.stringify(recording)).not.toContain(audio);
  });

  it('call_initiation_failure: a failed call with the SIP status', () => {
    expect(mapped(failure)).toEqual([
      expect.objectContaining({ type: 'call.failed', data: expect.objectContaining({ error_code: 'busy', stage: 'initiation', sip_status_code: 486 }) }),
    ]);
  });

  it('keeps a webhook type it does not map as unknown; a transcription without its ids does not fit', () => {
    expect(PROVIDER_ADAPTERS.elevenlabs.map({ type: 'voice_removal_notice', event_timestamp: 1, data: {} }, mappingContext())).toMatchObject({
      kind: 'unknown',
    });
    expect(PROVIDER_ADAPTERS.elevenlabs.map({ type: 'post_call_transcription', event_timestamp: 1, data: { agent_id: 'a' } }, mappingContext())).toMatchObject({
      kind: 'invalid',
      fields: [expect.objectContaining({ path: 'data.conversation_id' })],
    });
  });
});

describe('ElevenLabs-Signature', () => {
  const secret = 'wsec_5d8c1f0a9b7e6d4c3b2a1f0e';
  const body = JSON.stringify(deliveries[0]);
  const signed = (raw: string, at: number, key = secret) => `t=${at},v0=${createHmac('sha256', key).update(`${at}.${raw}`).digest('hex')}`;
  const request = (raw: string, header: string, receivedAt = new Date()) => ({
    method: 'POST',
    url: 'https://e.example/x',
    headers: { 'elevenlabs-signature': header },
    body: Buffer.from(raw),
    receivedAt,
  });
  const verifier = PROVIDER_ADAPTERS.elevenlabs.verifier([{ secret }]);
  const sdk = new ElevenLabsClient({ apiKey: 'unused' }).webhooks;

  it('verifies what the SDK’s constructEvent accepts, and refuses what it refuses', async () => {
    const now = Math.floor(Date.now() / 1000);
    const header = signed(body, now);
    await expect(sdk.constructEvent(body, header, secret)).resolves.toMatchObject({ type: 'post_call_transcription' });
    expect(verifier(request(body, header))).toMatchObject({ ok: true, signedAt: new Date(now * 1000) });

    const reserialized = JSON.stringify(JSON.parse(body), null, 1);
    await expect(sdk.constructEvent(reserialized, header, secret)).rejects.toThrow();
    expect(verifier(request(reserialized, header))).toMatchObject({ ok: false });

    const stale = signed(body, now - 31 * 60);
    await expect(sdk.constructEvent(body, stale, secret)).rejects.toThrow();
    expect(verifier(request(body, stale))).toMatchObject({ ok: false });

    const forged = signed(body, now, 'wsec_another_secret_000');
    expect(verifier(request(body, forged))).toMatchObject({ ok: false });
    expect(verifier(request(body, `t=${now}`))).toMatchObject({ ok: false });
  });
});
