import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_LIMITS, jsonShapeIssues } from './json-shape';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = { next: value };
  return value;
};

describe('jsonShapeIssues', () => {
  it('finds nothing in a body within the bounds', () => {
    expect(jsonShapeIssues({ call: { id: 'c-1', turns: [{ text: 'héllo 👋', ms: 12.5 }, null, true] } })).toEqual([]);
    expect(jsonShapeIssues('text')).toEqual([]);
    expect(jsonShapeIssues(nested(JSON_LIMITS.maxDepth))).toEqual([]);
  });

  it('names each issue by its path, in document order', () => {
    const issues = jsonShapeIssues({
      a: 'nul\u0000',
      b: { c: ['ok', 'lone \uD800'], [`k${'x'.repeat(JSON_LIMITS.maxKeyChars)}`]: 1 },
      'bad\u0000key': 1,
      d: Number.POSITIVE_INFINITY,
      e: 'x'.repeat(JSON_LIMITS.maxStringChars + 1),
    });
    expect(issues).toEqual([
      { path: 'a', message: 'holds a NUL character or an unpaired surrogate' },
      { path: 'b.c.1', message: 'holds a NUL character or an unpaired surrogate' },
      { path: `b.k${'x'.repeat(63)}…`, message: `a key longer than ${JSON_LIMITS.maxKeyChars} characters` },
      { path: 'bad\uFFFDkey', message: 'a key holding a NUL character or an unpaired surrogate' },
      { path: 'd', message: 'a number beyond the range of a double' },
      { path: 'e', message: `longer than ${JSON_LIMITS.maxStringChars} characters` },
    ]);
    expect(jsonShapeIssues('\u0000')).toEqual([{ path: '(body)', message: 'holds a NUL character or an unpaired surrogate' }]);
  });

  it('stops at the depth bound without recursing, however deep the value', () => {
    const path = Array.from({ length: JSON_LIMITS.maxDepth }, () => 'next').join('.');
    expect(jsonShapeIssues(nested(JSON_LIMITS.maxDepth + 1))).toEqual([{ path, message: `nested deeper than ${JSON_LIMITS.maxDepth} levels` }]);
    expect(jsonShapeIssues(nested(100_000))).toHaveLength(1);
  });

  it('looks for ten issues at most', () => {
    expect(jsonShapeIssues(Array.from({ length: 50 }, () => '\u0000'))).toHaveLength(10);
  });

  it('finds a NUL wherever it is put, at its path', () => {
    const storable = fc.string({ unit: 'grapheme', maxLength: 8 }).filter((text) => !text.includes('\u0000'));
    const json = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        storable,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.array(tie('value')),
        fc.dictionary(storable, tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.nat(), (generated, pick) => {
        expect(jsonShapeIssues(generated)).toEqual([]);
        const value = structuredClone(generated);
        const leaves: { holder: Record<string, unknown>; key: string; path: string }[] = [];
        const visit = (node: unknown, path: string[]) => {
          if (typeof node !== 'object' || node === null) return;
          for (const [key, item] of Object.entries(node)) {
            if (typeof item === 'string') leaves.push({ holder: node as Record<string, unknown>, key, path: [...path, key].join('.') });
            visit(item, [...path, key]);
          }
        };
        visit(value, []);
        const leaf = leaves[pick % Math.max(1, leaves.length)];
        if (!leaf) return;
        leaf.holder[leaf.key] = `${String(leaf.holder[leaf.key])}\u0000`;
        expect(jsonShapeIssues(value)).toEqual([{ path: leaf.path || '(body)', message: 'holds a NUL character or an unpaired surrogate' }]);
      }),
    );
  });
});
