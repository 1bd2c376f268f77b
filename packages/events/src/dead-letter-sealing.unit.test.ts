import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDeadLetterBody, sealDeadLetter } from './dead-letter-sealing';
import { decodeDeadLetter, encodeDeadLetter, schemaRegistry } from './default-codec';
import { SEALED_PREFIX, type DataKey } from './field-sealing';
import { sampleDeadLetter } from './samples';
import { frame } from './single-object';

const tenantKey: DataKey = { id: 'dk_tenant-1', key: randomBytes(32) };
const holding = (id: string) => (id === tenantKey.id ? tenantKey.key : undefined);
const destroyed = () => undefined;
/** Not UTF-8: a request body is kept as bytes, whatever they are. */
const raw = new Uint8Array([0xff, 0xfe, 0x00, 0x7b, ...Buffer.from('{"customer_id":"+15551234567"}')]);

describe('a dead letter sealed with its tenant’s data key', () => {
  it('carries its body as sealed text naming the key, and the key in sealed_with', () => {
    const sealed = sealDeadLetter(sampleDeadLetter({ body: raw }), tenantKey);
    expect(sealed.sealed_with).toBe(tenantKey.id);
    const text = Buffer.from(sealed.body).toString('utf8');
    expect(text.startsWith(`${SEALED_PREFIX}${tenantKey.id}:`)).toBe(true);
    expect(Buffer.from(sealed.body).includes(Buffer.from('+15551234567'))).toBe(false);
  });

  it('opens to the bytes as received, also after a round trip through the log', () => {
    const sealed = decodeDeadLetter(encodeDeadLetter(sealDeadLetter(sampleDeadLetter({ body: raw }), tenantKey)));
    expect(sealed.sealed_with).toBe(tenantKey.id);
    expect([...(openDeadLetterBody(sealed, holding) ?? [])]).toEqual([...raw]);
  });

  it('does not open once the key is destroyed', () => {
    expect(openDeadLetterBody(sealDeadLetter(sampleDeadLetter({ body: raw }), tenantKey), destroyed)).toBeUndefined();
  });

  it('leaves a body in the clear as it is', () => {
    const clear = sampleDeadLetter({ body: raw });
    expect(openDeadLetterBody(clear, destroyed)).toBe(clear.body);
  });

  it('refuses a body that names another key than sealed_with, or was altered', () => {
    const sealed = sealDeadLetter(sampleDeadLetter({ body: raw }), tenantKey);
    expect(() => openDeadLetterBody({ ...sealed, sealed_with: 'dk_other' }, holding)).toThrow(/not sealed with dk_other/);
    const text = Buffer.from(sealed.body).toString('utf8');
    const altered = Buffer.from(`${text.slice(0, -2)}${text.endsWith('AA') ? 'BB' : 'AA'}`);
    expect(() => openDeadLetterBody({ ...sealed, body: altered }, holding)).toThrow();
  });

  it('reads a dead letter written before sealed_with existed as one in the clear', () => {
    const older = schemaRegistry().find('dead-letter', '2026-01-01');
    if (!older) throw new Error('schemas/dead-letter/2026-01-01.avsc is missing');
    const { sealed_with: _new, ...fields } = sampleDeadLetter();
    const message = frame(older.fingerprint, older.type.toBuffer({ ...fields, received_at: Date.parse(fields.received_at), body: Buffer.from(fields.body) }));
    expect(decodeDeadLetter(message)).toEqual(sampleDeadLetter());
  });
});
