import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cell } from '@earshot/read-models';
import { slotOf } from './tenant-fold';

// Key columns hold text (no NUL: Postgres text cannot), numbers, booleans and nulls.
const keyValue: fc.Arbitrary<Cell> = fc.oneof(
  fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000')),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

describe('slotOf', () => {
  it('gives two keys one slot only when their values are the same, in the same order', () => {
    fc.assert(
      fc.property(fc.array(keyValue, { minLength: 1, maxLength: 3 }), fc.array(keyValue, { minLength: 1, maxLength: 3 }), (a, b) => {
        expect(slotOf(a) === slotOf(b)).toBe(JSON.stringify(a) === JSON.stringify(b));
      }),
      { numRuns: 5_000 },
    );
  });

  it('tells text from the value it spells, and where one value ends', () => {
    expect(slotOf(['null'])).not.toBe(slotOf([null]));
    expect(slotOf(['1'])).not.toBe(slotOf([1]));
    expect(slotOf(['ab', 'c'])).not.toBe(slotOf(['a', 'bc']));
    expect(slotOf(['', 'x'])).not.toBe(slotOf(['x', '']));
  });
});
