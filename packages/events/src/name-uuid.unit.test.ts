import fc from 'fast-check';
import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { nameUuid } from './name-uuid';

describe('nameUuid', () => {
  it('is the UUIDv5 the uuid package makes, for any name and namespace', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.uuid(), (name, namespace) => {
        expect(nameUuid(name, namespace)).toBe(v5(name, namespace));
      }),
      { numRuns: 500 },
    );
    expect(nameUuid('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => nameUuid('name', 'not-a-uuid')).toThrow(/namespace must be a UUID/);
  });
});
