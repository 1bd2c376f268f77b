import { describe, expect, it } from 'vitest';
import { isObject } from './avro-json';
import { createEventCodec } from './codec';
import { createSchemaRegistry } from './registry';
import { sampleEvent } from './samples';
import { readSchemaFiles, type SchemaFile } from './schema-files';
import { frame } from './single-object';

const released = readSchemaFiles();
const callEnded = released.find((file) => file.path === 'schemas/call.ended/2026-01-01.avsc');

/** call.ended as an imagined earlier version wrote it: `change` edits the data record's fields. */
function olderCallEnded(change: (fields: Record<string, unknown>[]) => Record<string, unknown>[]): SchemaFile {
  if (callEnded === undefined) throw new Error('call.ended schema missing');
  const schema = JSON.parse(callEnded.text);
  const data = schema.fields.find((field: { name: string }) => field.name === 'data');
  data.type.fields = change(data.type.fields.filter(isObject));
  return { path: 'schemas/call.ended/2025-06-01.avsc', subject: 'call.ended', version: '2025-06-01', text: JSON.stringify(schema) };
}

const without =
  (...names: string[]) =>
  (fields: Record<string, unknown>[]) =>
    fields.filter((field) => !names.includes(String(field.name)));

describe('reading an older writer schema', () => {
  const older = olderCallEnded(without('disconnection_reason', 'cost_usd'));
  const registry = createSchemaRegistry([...released, older]);
  const codec = createEventCodec(registry);

  it('keeps the newest version as the reader', () => {
    expect(registry.versions('call.ended')).toEqual(['2025-06-01', '2026-01-01']);
    expect(registry.current('call.ended')?.version).toBe('2026-01-01');
  });

  it('decodes to the current shape, fields the writer lacked taking their defaults or their value from extensions', () => {
    const writer = registry.find('call.ended', '2025-06-01');
    if (writer === undefined) throw new Error('older writer not registered');
    const sample = sampleEvent('call.ended');
    // Bytes as a gateway of the older version wrote them: the sender's cost_usd was unknown then, so it went to extensions.
    const body = writer.type.toBuffer({
      ...sample,
      version: '2025-06-01',
      occurred_at: Date.parse(sample.occurred_at),
      received_at: Date.parse(sample.received_at),
      data: { ended_reason: 'customer-ended-call', duration_ms: 61_000 },
      extensions: JSON.stringify({ data: { cost_usd: 0.11 } }),
    });

    expect(codec.decodeEvent(frame(writer.fingerprint, body))).toEqual({
      ...sample,
      version: '2025-06-01',
      data: { ended_reason: 'customer-ended-call', duration_ms: 61_000, disconnection_reason: null, cost_usd: 0.11 },
    });
  });

  it('still decodes messages of the current version', () => {
    const event = sampleEvent('call.ended');
    expect(codec.decodeEvent(codec.encodeEvent(event))).toEqual(event);
  });

  it('refuses, at load, a writer the current reader cannot resolve', () => {
    const incompatible = olderCallEnded((fields) => fields.map((field) => (field.name === 'ended_reason' ? { name: 'ended_reason', type: 'boolean' } : field)));
    expect(() => createSchemaRegistry([...released, incompatible])).toThrowError(/2025-06-01\.avsc cannot be read as schemas\/call\.ended\/2026-01-01\.avsc/);
  });
});

describe('incident statuses across versions (2026-11-22 adds acknowledged)', () => {
  const codec = createEventCodec(createSchemaRegistry(released));
  const updated = (version: '2026-01-01' | '2026-11-22', status: 'investigating' | 'acknowledged') =>
    sampleEvent('incident.updated', { version, data: { status } });

  it('writes each version with the file in force at it, and reads both as the newest', () => {
    expect(codec.decodeEvent(codec.encodeEvent(updated('2026-01-01', 'investigating')))).toEqual(updated('2026-01-01', 'investigating'));
    expect(codec.decodeEvent(codec.encodeEvent(updated('2026-11-22', 'acknowledged')))).toEqual(updated('2026-11-22', 'acknowledged'));
    // Types the new version left alone keep their earlier file.
    const started = sampleEvent('call.started', { version: '2026-11-22' });
    expect(codec.decodeEvent(codec.encodeEvent(started))).toEqual(started);
  });

  it('refuses acknowledged in a 2026-01-01 event: that schema has no such status', () => {
    expect(() => codec.encodeEvent(updated('2026-01-01', 'acknowledged'))).toThrowError(
      expect.objectContaining({ name: 'EventCodecError', code: 'INVALID_VALUE' }),
    );
  });
});

describe('agent turns across versions (2026-11-24 reports a turn in parts)', () => {
  const codec = createEventCodec(createSchemaRegistry(released));

  it('reads a 2026-01-01 turn as the newest, the added fields null', () => {
    const old = sampleEvent('agent.response.generated', {
      version: '2026-01-01',
      data: { transcription_delay_ms: null, e2e_ms: null, unattributed_ms: null },
    });
    expect(codec.decodeEvent(codec.encodeEvent(old))).toEqual(old);
  });

  it('writes a 2026-11-24 part that carries some latency parts only', () => {
    const part = sampleEvent('agent.response.generated', {
      version: '2026-11-24',
      data: { latency: { asr_ms: null, llm_ms: 390, tts_ms: null, total_ms: null }, llm_ttft_ms: 390, e2e_ms: null, unattributed_ms: null },
    });
    expect(codec.decodeEvent(codec.encodeEvent(part))).toEqual(part);
  });

  it('refuses a 2026-01-01 turn without all four parts: that schema needs them', () => {
    const partial = sampleEvent('agent.response.generated', { version: '2026-01-01', data: { latency: { asr_ms: null, llm_ms: 1, tts_ms: 1, total_ms: 2 } } });
    expect(() => codec.encodeEvent(partial)).toThrowError(expect.objectContaining({ name: 'EventCodecError', code: 'INVALID_VALUE' }));
  });
});
