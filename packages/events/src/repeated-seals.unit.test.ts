import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openValue, UnreadableSealedValue, type DataKey } from './field-sealing';
import { openRepeated, sealRepeated } from './repeated-seals';

const callKey = (): DataKey => ({ id: `call-key-${randomBytes(4).toString('hex')}`, key: randomBytes(32) });
const holding = (key: DataKey) => (id: string) => (id === key.id ? key.key : undefined);

describe('sealRepeated', () => {
  it('seals a value once per key and path, and each seal opens like every other', () => {
    const key = callKey();
    const first = sealRepeated('+14155550123', key, 'call.from_number');
    expect(sealRepeated('+14155550123', key, 'call.from_number')).toBe(first);
    const others = [
      sealRepeated('+14155550124', key, 'call.from_number'),
      sealRepeated('+14155550123', key, 'call.to_number'),
      sealRepeated('+14155550123', { ...key }, 'call.from_number'),
    ];
    expect(new Set([first, ...others]).size).toBe(4);
    expect(openValue(first, holding(key), 'call.from_number')).toBe('+14155550123');
    expect(openValue(others[1] as string, holding(key), 'call.to_number')).toBe('+14155550123');
    expect(() => openValue(first, holding(key), 'call.to_number')).toThrow(UnreadableSealedValue);
  });

  it('keeps apart a path and value that run together as another path and value would', () => {
    const key = callKey();
    const [first, second] = [sealRepeated('b\u0000x', key, 'call.metadata.a'), sealRepeated('x', key, 'call.metadata.a\u0000b')];
    expect(openValue(first, holding(key), 'call.metadata.a')).toBe('b\u0000x');
    expect(openValue(second, holding(key), 'call.metadata.a\u0000b')).toBe('x');
  });

  it('keeps a bounded few values per key, sealing the rest anew', () => {
    const key = callKey();
    const values = Array.from({ length: 40 }, (_, i) => `customer-${i}`);
    const sealed = values.map((value) => sealRepeated(value, key, 'call.customer_id'));
    expect(sealed.map((value) => openValue(value, holding(key), 'call.customer_id'))).toEqual(values);
    expect(sealRepeated('customer-0', key, 'call.customer_id')).not.toBe(sealed[0]);
    expect(sealRepeated('customer-39', key, 'call.customer_id')).toBe(sealed[39]);
  });
});

describe('openRepeated', () => {
  it('answers a value it opened before from memory, while the reader holds the same key', () => {
    const key = callKey();
    const sealed = sealRepeated('cus_8812', key, 'call.customer_id');
    const bytes = Buffer.from(key.key);
    expect(openRepeated(sealed, key.id, bytes, 'call.customer_id')).toBe('cus_8812');
    // Keys as they were, a second AES-GCM would fail now: the answer comes from the first opening.
    bytes.fill(0);
    expect(openRepeated(sealed, key.id, bytes, 'call.customer_id')).toBe('cus_8812');
    // The memory is the key's: the same bytes held anew open the value again.
    expect(openRepeated(sealed, key.id, Buffer.from(key.key), 'call.customer_id')).toBe('cus_8812');
    expect(() => openRepeated(sealed, key.id, Buffer.alloc(32), 'call.customer_id')).toThrow(UnreadableSealedValue);
  });

  it('still refuses a value moved to another field or altered, after opening it where it belongs', () => {
    const key = callKey();
    const sealed = sealRepeated('+14155550123', key, 'call.from_number');
    expect(openRepeated(sealed, key.id, key.key, 'call.from_number')).toBe('+14155550123');
    expect(() => openRepeated(sealed, key.id, key.key, 'call.to_number')).toThrow(UnreadableSealedValue);
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(() => openRepeated(altered, key.id, key.key, 'call.from_number')).toThrow(UnreadableSealedValue);
  });
});
