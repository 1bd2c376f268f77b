import { readFileSync } from 'node:fs';
import avro from 'avsc';
import { EVENT_TYPES, IncomingEventSchema, StoredEventSchema, receiveEvent } from '@earshot/contracts';
import { describe, expect, it } from 'vitest';
import { decodeDeadLetter, decodeDelivery, decodeEvent, encodeDeadLetter, encodeDelivery, encodeEvent, schemaFingerprint } from './default-codec';
import { sampleDeadLetter, sampleDelivery, sampleEvent } from './samples';
import { SCHEMAS_ROOT } from './schema-files';
import { fingerprintOf, frame, unframe } from './single-object';

const codecError = (code: string) => expect.objectContaining({ name: 'EventCodecError', code });

describe.each(EVENT_TYPES)('%s', (type) => {
  it('is valid, and survives zod, Avro encoding and decoding unchanged', () => {
    const sample = sampleEvent(type);
    const validated = StoredEventSchema.parse(sample);
    expect(validated).toEqual(sample);

    const message = encodeEvent(validated);
    expect(fingerprintOf(message)).toBe(schemaFingerprint(type, sample.version));
    expect(decodeEvent(message)).toEqual(sample);
  });

  it('keeps fields the schema does not know, at the top, in call and in data', () => {
    const event = sampleEvent(type, {
      trace_id: 'tr-9',
      call: { sip_call_id: 'a84b4c76e66710@pbx.acme.example', tags: ['vip'] },
      data: { vendor_payload: { raw: [1, 'two', null], nested: { ok: true } } },
    });
    expect(decodeEvent(encodeEvent(StoredEventSchema.parse(event)))).toEqual(event);
  });
});

describe('event messages', () => {
  it('can be read with the released schema file alone, unknown fields in extensions', () => {
    const event = sampleEvent('agent.response.generated', {
      version: '2026-01-01',
      trace_id: 'tr-9',
      extensions: 'the sender used this name too',
      // What 2026-11-24 added is not sent: a 2026-01-01 sender does not know it.
      data: {
        latency: { asr_ms: 180, llm_ms: 420, tts_ms: 210, total_ms: 960, vad_ms: 30 },
        transcription_delay_ms: null,
        e2e_ms: null,
        unattributed_ms: null,
      },
    });
    const message = encodeEvent(event);
    const file = JSON.parse(readFileSync(new URL('agent.response.generated/2026-01-01.avsc', SCHEMAS_ROOT), 'utf8'));
    const record = avro.Type.forSchema(file).fromBuffer(unframe(message).body);

    expect(record.occurred_at).toBe(Date.parse(event.occurred_at));
    expect(record.data.latency.total_ms).toBe(960);
    expect(JSON.parse(record.extensions)).toEqual({
      trace_id: 'tr-9',
      extensions: 'the sender used this name too',
      data: { latency: { vad_ms: 30 } },
    });
    expect(decodeEvent(message)).toEqual(event);
  });

  it('store JSON-valued fields as JSON text', () => {
    const event = sampleEvent('tool.call.completed', { data: { arguments: '{"city":"Paris"}', result: [1, { ok: true }] } });
    const message = encodeEvent(event);
    const file = JSON.parse(readFileSync(new URL('tool.call.completed/2026-01-01.avsc', SCHEMAS_ROOT), 'utf8'));
    const record = avro.Type.forSchema(file).fromBuffer(unframe(message).body);
    expect(record.data.result).toBe('[1,{"ok":true}]');
    expect(record.extensions).toBeNull();
    expect(decodeEvent(message)).toEqual(event);
  });

  it('round-trip what a provider posts, once validated and received', () => {
    const incoming = IncomingEventSchema.parse({
      type: 'call.ended',
      version: '2026-01-01',
      idempotency_key: 'retell:call_91:ended',
      occurred_at: '2026-01-08T10:30:52.3+01:00',
      call: { provider_call_id: 'call_91', agent_id: 'agent_support', telephony: { carrier: 'twilio' } },
      data: { disconnection_reason: 'user_hangup', duration_ms: 49_800, call_cost: { combined_cost: 8.75 } },
    });
    const stored = receiveEvent(incoming, { tenant: 'tenant-1', provider: 'retell', received_at: '2026-01-08T09:30:52.540Z' });
    const decoded = decodeEvent(encodeEvent(stored));
    expect(decoded).toEqual(stored);
    expect(decoded).toMatchObject({ occurred_at: '2026-01-08T09:30:52.300Z', data: { ended_reason: null, call_cost: { combined_cost: 8.75 } } });
  });

  it('refuse a value that does not fit, naming the path', () => {
    const event = sampleEvent('agent.response.generated', { data: { latency: { asr_ms: 1.5, llm_ms: 1, tts_ms: 1, total_ms: 3 } } });
    expect(() => encodeEvent(event)).toThrowError(codecError('INVALID_VALUE'));
    expect(() => encodeEvent(event)).toThrowError(/data\.latency\.asr_ms/);
  });

  it('refuse a version with no schema file', () => {
    const event = { ...sampleEvent('call.started'), version: '2099-01-01' as const };
    // @ts-expect-error a version the contracts do not know, as a stale producer might send
    expect(() => encodeEvent(event)).toThrowError(codecError('UNKNOWN_SCHEMA'));
  });

  it('name an unknown writer fingerprint', () => {
    const message = frame(0x0123456789abcdefn, Buffer.from([0]));
    expect(() => decodeEvent(message)).toThrowError(codecError('UNKNOWN_FINGERPRINT'));
    expect(() => decodeEvent(message)).toThrowError(/0123456789abcdef/);
  });

  it('reject a bad marker, a body that does not decode, and a delivery read as an event', () => {
    const message = encodeEvent(sampleEvent('call.started'));
    expect(() => decodeEvent(Buffer.concat([Buffer.from([0x4f, 0x62]), message.subarray(2)]))).toThrowError(codecError('BAD_MARKER'));
    expect(() => decodeEvent(message.subarray(0, message.length - 5))).toThrowError(codecError('MALFORMED_BODY'));
    expect(() => decodeEvent(encodeDelivery(sampleDelivery()))).toThrowError(codecError('WRONG_SCHEMA'));
  });
});

describe('dead letters and deliveries', () => {
  it('round-trip, raw body bytes included', () => {
    const deadLetter = sampleDeadLetter({
      body: new Uint8Array([0xff, 0xfe, 0x00, 0x7b]),
      source: 'projector',
      topic: 'earshot.events',
      partition: 3,
      offset: 2 ** 40,
    });
    const decoded = decodeDeadLetter(encodeDeadLetter(deadLetter));
    expect({ ...decoded, body: [...decoded.body] }).toEqual({ ...deadLetter, body: [0xff, 0xfe, 0x00, 0x7b] });
    expect(decodeDeadLetter(encodeDeadLetter(sampleDeadLetter()))).toEqual(sampleDeadLetter());
  });

  it('deliveries round-trip with every outcome', () => {
    for (const outcome of ['accepted', 'duplicate', 'rejected', 'dead_lettered', 'rate_limited'] as const) {
      const delivery = sampleDelivery({ outcome, http_status: outcome === 'rate_limited' ? 429 : 202 });
      expect(decodeDelivery(encodeDelivery(delivery))).toEqual(delivery);
    }
    expect(() => decodeDelivery(encodeDeadLetter(sampleDeadLetter()))).toThrowError(codecError('WRONG_SCHEMA'));
  });
});
