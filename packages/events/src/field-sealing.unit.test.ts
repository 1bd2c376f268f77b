import { createDecipheriv, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openBytes, openValue, sealValue, sealedWith, SEALED_PREFIX, UnreadableSealedValue, type DataKey } from './field-sealing';

const dataKey: DataKey = { id: 'call-key-1', key: randomBytes(32) };
const holding = (id: string) => (id === dataKey.id ? dataKey.key : undefined);

describe('sealValue', () => {
  it('gives every seal a nonce of its own, across many draws of the nonce pool', () => {
    const sealed = Array.from({ length: 2_000 }, () => sealValue('the same words', dataKey, 'data.text'));
    const nonces = new Set(
      sealed.map((value) =>
        Buffer.from(value.slice(`${SEALED_PREFIX}${dataKey.id}:`.length), 'base64url')
          .subarray(0, 12)
          .toString('hex'),
      ),
    );
    expect(nonces.size).toBe(sealed.length);
    expect(sealed.every((value) => openValue(value, holding, 'data.text') === 'the same words')).toBe(true);
  });

  it('writes nonce, tag and ciphertext as standard AES-256-GCM with the key id and path as associated data', () => {
    const text = 'Héllo, I need to move my appointment 👋';
    const value = sealValue(text, dataKey, 'data.text');
    expect(sealedWith(value)).toBe(dataKey.id);
    const bytes = Buffer.from(value.slice(`${SEALED_PREFIX}${dataKey.id}:`.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', dataKey.key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(`${dataKey.id}|data.text`));
    decipher.setAuthTag(bytes.subarray(12, 28));
    expect(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')).toBe(text);
    expect(openValue(sealValue('', dataKey, 'data.text'), holding, 'data.text')).toBe('');
  });
});

describe('openValue', () => {
  const sealed = sealValue('call me back at 5', dataKey, 'data.text');
  const prefix = `${SEALED_PREFIX}${dataKey.id}:`;
  const bytes = Buffer.from(sealed.slice(prefix.length), 'base64url');
  const flipped = Buffer.from(bytes);
  flipped[flipped.length - 1] = (flipped.at(-1) ?? 0) ^ 1;

  it.each([
    ['altered ciphertext', `${prefix}${flipped.toString('base64url')}`, 'data.text'],
    ['a value moved to another field', sealed, 'data.summary'],
    ['bytes cut shorter than a nonce and a tag', `${prefix}${bytes.subarray(0, 20).toString('base64url')}`, 'data.text'],
  ])('refuses %s, naming the field and the key rather than OpenSSL’s words', (_what, value, path) => {
    expect(() => openValue(value, holding, path)).toThrow(UnreadableSealedValue);
    expect(() => openValue(value, holding, path)).toThrow(
      `${path}: the sealed value does not open with key ${dataKey.id}, which it names: its bytes were altered`,
    );
  });

  it('leaves a value whose key is not held unopened, without an error', () => {
    expect(openValue(sealed, () => undefined, 'data.text')).toBeUndefined();
  });

  it('opens any text as it was sealed, and its bytes as they were', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(openValue(sealValue(text, dataKey, 'data.text'), holding, 'data.text')).toBe(text);
        expect(openBytes(sealValue(Buffer.from(text), dataKey, 'data.text'), holding, 'data.text')).toEqual(Buffer.from(text));
      }),
      { numRuns: 500 },
    );
  });
});
