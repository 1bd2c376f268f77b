import { describe, expect, it } from 'vitest';
import { cursorPattern, decodeCursor, encodeCursor, type CursorKinds } from './cursor';

const text: CursorKinds = { value: 'time', id: 'text' };

describe('the keyset cursor', () => {
  it('round-trips the positions the routes give out, and each matches its pattern', () => {
    const cases: [CursorKinds, { v: string | number | null; id: string }][] = [
      [text, { v: '2026-02-01T08:00:00.123Z', id: 'dep/ü~1' }],
      [text, { v: '1174-08-12T01:29:03.000Z', id: 'out_7c2e' }],
      [
        { value: 'integer', id: 'uuid' },
        { v: 93_000, id: '3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21' },
      ],
      [
        { value: 'float', id: 'uuid' },
        { v: 1e-7, id: '3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21' },
      ],
      [
        { value: 'float', id: 'uuid' },
        { v: null, id: '3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21' },
      ],
      [
        { value: 'none', id: 'day' },
        { v: null, id: '2026-02-01' },
      ],
    ];
    for (const [kinds, position] of cases) {
      const cursor = encodeCursor(position, kinds);
      expect(cursor).toMatch(cursorPattern(kinds));
      expect(decodeCursor(cursor, kinds)).toEqual(position);
    }
  });

  it('reads every string its pattern allows as a position PostgreSQL takes (the fuzzer\'s "0~0" and extremes were 400s or 500s)', () => {
    expect(decodeCursor('0~0', text)).toEqual({ v: '1970-01-01T00:00:00.000Z', id: '0' });
    expect(decodeCursor('-9999999999999999~%C3', text)).toEqual({ v: '0001-01-01T00:00:00.000Z', id: '\uFFFD' });
    expect(decodeCursor('1e999~a', { value: 'integer', id: 'text' }).v).toBe(Number.MAX_SAFE_INTEGER);
    expect(decodeCursor('1.5~9999999', { value: 'none', id: 'day' })).toEqual({ v: null, id: '9999-12-31' });
  });

  it('refuses what no list gives out: base64 JSON, a NUL byte, a non-UUID where ids are UUIDs, a null time', () => {
    expect('eyJzIjoiLXN0YXJ0ZWRBdCJ9').not.toMatch(cursorPattern(text));
    expect('0~a%00b').not.toMatch(cursorPattern(text));
    expect('0~not-a-uuid').not.toMatch(cursorPattern({ value: 'float', id: 'uuid' }));
    // A time is never null (null~… under a time sort was a 500 on GET /keys).
    expect('null~a').not.toMatch(cursorPattern(text));
    expect('null~a').toMatch(cursorPattern({ value: 'none', id: 'text' }));
  });
});
