import { describe, expect, it } from 'vitest';
import { EventCodecError } from './codec-error';
import { fingerprintOf, frame, SINGLE_OBJECT_MARKER, unframe } from './single-object';

describe('single-object encoding', () => {
  it('puts the marker, then the fingerprint little-endian, before the body', () => {
    const message = frame(0x63dd24e7cc258f8an, Buffer.from([0x02, 0x61]));
    expect(message.toString('hex')).toBe('c3018a8f25cce724dd630261');
    expect([...message.subarray(0, 2)]).toEqual([...SINGLE_OBJECT_MARKER]);
    expect(fingerprintOf(message)).toBe('63dd24e7cc258f8a');
    expect(unframe(new Uint8Array(message))).toEqual({ fingerprint: 0x63dd24e7cc258f8an, body: Buffer.from([0x02, 0x61]) });
  });

  it.each([
    ['a wrong marker', Buffer.from('c4018a8f25cce724dd630261', 'hex')],
    ['a truncated header', Buffer.from('c3018a8f25', 'hex')],
    ['an empty message', Buffer.alloc(0)],
  ])('rejects %s with BAD_MARKER', (_case, message) => {
    expect(() => unframe(message)).toThrowError(expect.objectContaining({ name: 'EventCodecError', code: 'BAD_MARKER' }));
    expect(() => unframe(message)).toThrow(EventCodecError);
  });
});
