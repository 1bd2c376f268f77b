import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import avro from 'avsc';
import { EVENT_TYPES, type StoredEvent } from '@earshot/contracts';
import { describe, expect, it } from 'vitest';
import { decodeEvent, encodeEvent, schemaRegistry } from './default-codec';
import { isSealed, openValue, sealValue, type DataKey, type KeyLookup } from './field-sealing';
import { sampleEvent } from './samples';
import { SCHEMAS_ROOT } from './schema-files';
import { CONVERSATION_TEXT, openConversationText, sealedFieldsOf, stillSealed } from './sealed-fields';
import { unframe } from './single-object';

const callKey: DataKey = { id: 'call-key-1', key: randomBytes(32) };
const holding =
  (...keys: DataKey[]): KeyLookup =>
  (id) =>
    keys.find((k) => k.id === id)?.key;

/** The record as a reader with the released schema file alone sees it: avsc, outside the codec. */
function rawRecord(event: StoredEvent, message: Buffer): Record<string, unknown> {
  const path = schemaRegistry().inForce(event.type, event.version)?.path ?? '';
  const file = JSON.parse(readFileSync(new URL(path.replace(/^schemas\//, ''), SCHEMAS_ROOT), 'utf8')) as avro.Schema;
  return avro.Type.forSchema(file, { wrapUnions: false }).fromBuffer(unframe(message).body) as Record<string, unknown>;
}

/** The plaintexts of an event's personal fields, to look for in the bytes written. */
function personalTexts(event: StoredEvent): string[] {
  const data = event.data as Record<string, unknown>;
  const own = sealedFieldsOf(event.type)
    .filter((p) => p.startsWith('data.'))
    .map((p) => data[p.slice(5)])
    .filter((v) => v !== null && v !== undefined)
    .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  const call = event.call ? [event.call.from_number, event.call.to_number, event.call.customer_id, ...Object.values(event.call.metadata ?? {})] : [];
  return [...own, ...call].filter((v): v is string => typeof v === 'string' && v.length > 3);
}

describe.each(EVENT_TYPES)('%s sealed with a data key', (type) => {
  const event = sampleEvent(type, { trace_id: 'tr-secret-trace', call: { metadata: { campaign: 'secret-campaign', locale: 'secret-locale' } } });
  const message = encodeEvent(event, callKey);

  it('opens to the event itself with the key', () => {
    expect(decodeEvent(message, holding(callKey))).toEqual(event);
  });

  it('writes none of its personal texts in the clear', () => {
    const bytes = message.toString('latin1');
    for (const text of [...personalTexts(event), 'tr-secret-trace']) expect(bytes).not.toContain(text);
  });

  it('stays sealed without the key, and says which fields are', () => {
    const decoded = decodeEvent(message, holding({ id: 'another-tenants-key', key: randomBytes(32) }));
    expect(decoded.idempotency_key).toBe(event.idempotency_key);
    expect(decoded.call?.provider_call_id).toBe(event.call?.provider_call_id);
    const sealed = stillSealed(type, rawRecord(event, message));
    expect(sealed).toContain('extensions');
    if (event.call?.customer_id) expect(decoded.call?.customer_id).toSatisfy(isSealed);
    for (const path of sealed) expect(sealedFieldsOf(type).some((p) => path.startsWith(p.replace('{}', '')))).toBe(true);
  });
});

describe('sealed fields', () => {
  it('read with the released schema file alone are self-describing strings naming their key', () => {
    const event = sampleEvent('transcript.final', { data: { text: 'my card number is 4111 1111 1111 1111' } });
    const record = rawRecord(event, encodeEvent(event, callKey));
    const data = record.data as Record<string, unknown>;
    expect(data.text).toMatch(/^sealed:v1:call-key-1:[A-Za-z0-9_-]+$/);
    expect(stillSealed('transcript.final', record)).toEqual([
      'call.from_number',
      'call.to_number',
      'call.customer_id',
      'call.metadata.campaign',
      'call.metadata.locale',
      'data.text',
    ]);
  });

  it('of the call block are sealed once per call, the text of each event anew', () => {
    const key: DataKey = { id: 'call-key-2', key: randomBytes(32) };
    const sealedOf = (event: StoredEvent) => {
      const record = rawRecord(event, encodeEvent(event, key));
      return { call: record.call, text: (record.data as Record<string, unknown>).text };
    };
    const event = sampleEvent('transcript.final', { data: { text: 'yes' }, call: { metadata: { campaign: 'spring' } } });
    const [first, second] = [sealedOf(event), sealedOf({ ...event, idempotency_key: 'another-turn' })];
    expect(second?.call).toEqual(first?.call);
    expect(second?.text).not.toBe(first?.text);
    expect(decodeEvent(encodeEvent(event, key), holding(key))).toEqual(event);
  });

  it('are written in the clear without a data key, as before', () => {
    const event = sampleEvent('transcript.final');
    expect(stillSealed('transcript.final', rawRecord(event, encodeEvent(event)))).toEqual([]);
  });

  it('refuse to open when moved to another field or altered', () => {
    const moved = sealValue('+14155550123', callKey, 'call.from_number');
    const event = sampleEvent('transcript.final', { call: { to_number: moved } });
    expect(() => decodeEvent(encodeEvent(event), holding(callKey))).toThrow(expect.objectContaining({ code: 'MALFORMED_BODY' }));
    const flipped = `${moved.slice(0, -2)}${moved.endsWith('AA') ? 'BB' : 'AA'}`;
    const altered = sampleEvent('transcript.final', { call: { from_number: flipped } });
    expect(() => decodeEvent(encodeEvent(altered), holding(callKey))).toThrow(expect.objectContaining({ code: 'MALFORMED_BODY' }));
  });

  it('each open with the key they name, though one event names several, and stay sealed where it is not held', () => {
    // An id that begins another's: a value is not taken to name a key its id only starts with.
    const other: DataKey = { id: `${callKey.id}0`, key: randomBytes(32) };
    const gone: DataKey = { id: 'call-key-gone', key: randomBytes(32) };
    const event = sampleEvent('transcript.final', {
      data: { text: sealValue('hello', other, 'data.text') },
      call: {
        from_number: sealValue('+14155550123', callKey, 'call.from_number'),
        to_number: sealValue('+14155550199', other, 'call.to_number'),
        customer_id: sealValue('cus_1', gone, 'call.customer_id'),
      },
    });
    const decoded = decodeEvent(encodeEvent(event), holding(callKey, other));
    expect(decoded.call).toMatchObject({ from_number: '+14155550123', to_number: '+14155550199', customer_id: event.call?.customer_id });
    expect(decoded.data).toMatchObject({ text: 'hello' });
  });

  it('keep sealed extensions under extensions when the key is not held', () => {
    const event = sampleEvent('call.started', { trace_id: 'tr-9' });
    const decoded = decodeEvent(encodeEvent(event, callKey), holding()) as StoredEvent & { extensions?: unknown };
    expect(decoded.extensions).toSatisfy(isSealed);
    expect(decoded).not.toHaveProperty('trace_id');
  });
});

describe('what the read models keep sealed', () => {
  /** By event type, the fields the projector leaves sealed: what was said, and what tools were given and gave back. */
  const KEPT: Record<string, string[]> = {
    'transcript.partial': ['text'],
    'transcript.final': ['text'],
    'agent.response.generated': ['text'],
    'tool.call.started': ['arguments'],
    'tool.call.completed': ['arguments', 'result'],
    'tool.call.failed': ['arguments', 'error'],
  };

  it.each(EVENT_TYPES)('%s: stays sealed for the projector, whose reading opens every other field', (type) => {
    const event = sampleEvent(type, { trace_id: 'tr-1', call: { metadata: { campaign: 'spring' } } });
    const read = decodeEvent(encodeEvent(event, callKey), holding(callKey), { leaveKeptSealed: true });
    const data = { ...(read.data as Record<string, unknown>) };
    const sent = { ...(event.data as Record<string, unknown>) };
    for (const field of KEPT[type] ?? []) {
      expect(sent[field], `${type} data.${field} in the sample`).toBeDefined();
      const sealed = String(data[field]);
      expect(sealed).toSatisfy(isSealed);
      const opened = openValue(sealed, holding(callKey), `data.${field}`);
      expect(typeof sent[field] === 'string' ? opened : JSON.parse(opened ?? 'null')).toEqual(sent[field]);
      delete data[field];
      delete sent[field];
    }
    expect({ ...read, data }).toEqual({ ...event, data: sent });
    if (type === 'transcript.final') expect(openConversationText(String(read.data.text), holding(callKey))).toBe(event.data.text);
  });

  it('is answered as stored when it does not open with the reader’s keys', () => {
    const sealed = sealValue('my card number is 4111', callKey, CONVERSATION_TEXT);
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    const elsewhere = sealValue('my card number is 4111', callKey, 'data.summary');
    expect(openConversationText(sealed, holding(callKey))).toBe('my card number is 4111');
    for (const stored of [sealed, flipped, elsewhere, 'sealed:v1:dk_nobody:AAAA', 'sealed:v1:not a key:AAAA', 'sealed:v1:', 'plain words']) {
      expect(openConversationText(stored, holding({ id: 'another-tenants-key', key: randomBytes(32) }))).toBe(stored);
    }
    for (const stored of [flipped, elsewhere]) expect(openConversationText(stored, holding(callKey))).toBe(stored);
  });
});
