import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { addSample, copySketch, quantile, RELATIVE_ACCURACY, SketchSum, sketchOf } from './sketch';

setFlagsFromString('--allow-natives-syntax');
/** V8's own answer to how an object keeps its integer-like keys (compiled after the flag is set). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax compiles only in code made after the flag is set
const hasDictionaryElements = new Function('object', 'return %HasDictionaryElements(object)') as (object: object) => boolean;

const exactQuantile = (values: readonly number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? 0;

describe('latency sketch', () => {
  it('answers any quantile within 1% of the exact value', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 600_000 }), { minLength: 1, maxLength: 500 }), fc.constantFrom(0.5, 0.95, 0.99), (values, q) => {
        const exact = exactQuantile(values, q);
        const estimate = quantile(sketchOf(values), q) ?? -1;
        expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(exact * RELATIVE_ACCURACY + 1e-9);
      }),
      { numRuns: 500 },
    );
  });

  it('counts samples in one at a time into the sketch of them all (as the projector folds a minute)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 600_000 }), { minLength: 1, maxLength: 200 }), ([first = 0, ...rest]) => {
        const folded = sketchOf([first]);
        for (const value of rest) addSample(folded, value);
        expect(folded).toEqual(sketchOf([first, ...rest]));
      }),
    );
  });

  it('reads the quantiles of sketches added up as those of all their values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 60_000 }), { maxLength: 50 }), { minLength: 1, maxLength: 10 }),
        fc.constantFrom(0.5, 0.95, 0.99),
        (parts, q) => {
          const sum = parts.reduce((total, part) => total.add(sketchOf(part)), new SketchSum());
          expect(sum.quantile(q)).toBe(quantile(sketchOf(parts.flat()), q));
        },
      ),
    );
    expect(new SketchSum().quantile(0.5)).toBeNull();
  });

  it('keeps bucket indexes in a dictionary, not in an array as long as the highest index', () => {
    const one = sketchOf([500]);
    expect(one).toEqual({ '311': 1 });
    expect(JSON.stringify(one)).toBe('{"311":1}');
    expect(hasDictionaryElements(one)).toBe(true);
    expect(hasDictionaryElements(copySketch(one))).toBe(true);
    const grown = copySketch(one);
    addSample(grown, 40);
    expect(hasDictionaryElements(grown)).toBe(true);
    expect(hasDictionaryElements({ ...one })).toBe(false);
  });
});
