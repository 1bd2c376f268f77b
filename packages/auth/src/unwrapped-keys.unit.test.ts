import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UnwrappedKeys } from './unwrapped-keys';

describe('UnwrappedKeys', () => {
  it('hands out the same key for the same wrapped bytes, and nothing for other bytes', () => {
    const keys = new UnwrappedKeys();
    const wrapped = randomBytes(60);
    const key = randomBytes(32);
    keys.set('dk_1', wrapped, key);
    expect(keys.get('dk_1', Buffer.from(wrapped))).toBe(key);
    // Re-wrapped (the master key rotated): opened again, not taken on trust.
    expect(keys.get('dk_1', randomBytes(60))).toBeUndefined();
    expect(keys.get('dk_2', wrapped)).toBeUndefined();
  });

  it('forgets, within two generations, a key no lookup asks for again', () => {
    const keys = new UnwrappedKeys(2);
    const wrapped = (id: string) => Buffer.from(id);
    keys.set('erased', wrapped('erased'), randomBytes(32));
    keys.set('kept', wrapped('kept'), randomBytes(32));
    const kept = keys.get('kept', wrapped('kept'));
    keys.set('a', wrapped('a'), randomBytes(32));
    expect(keys.get('kept', wrapped('kept'))).toBe(kept);
    keys.set('b', wrapped('b'), randomBytes(32));
    keys.set('c', wrapped('c'), randomBytes(32));
    expect(keys.get('erased', wrapped('erased'))).toBeUndefined();
    expect(keys.get('kept', wrapped('kept'))).toBe(kept);
  });
});
