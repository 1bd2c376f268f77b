import { describe, expect, it } from 'vitest';
import { mergeMaps } from './registers';

const add = (x: number, y: number) => x + y;

describe('mergeMaps', () => {
  it('merges the keys both maps hold and keeps the rest', () => {
    expect(mergeMaps({ a: 1, b: 2 }, { b: 10, c: 3 }, add)).toEqual({ a: 1, b: 12, c: 3 });
    expect(mergeMaps({ b: 10, c: 3 }, { a: 1, b: 2 }, add)).toEqual({ a: 1, b: 12, c: 3 });
  });

  it('stores a "__proto__" key as a key, merged like any other', () => {
    // JSON.parse makes "__proto__" an own key, as a decoded event's map has it.
    const a = JSON.parse('{"__proto__": 1, "x": 1}') as Record<string, number>;
    const b = JSON.parse('{"__proto__": 5, "toString": 2}') as Record<string, number>;
    const merged = mergeMaps(a, b, add);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.entries(merged).sort()).toEqual([
      ['__proto__', 6],
      ['toString', 2],
      ['x', 1],
    ]);
    const fresh = mergeMaps({ x: 1 }, b, add);
    expect(Object.getPrototypeOf(fresh)).toBe(Object.prototype);
    expect(Object.hasOwn(fresh, '__proto__')).toBe(true);
    expect(JSON.stringify(fresh)).toBe('{"x":1,"__proto__":5,"toString":2}');
  });
});
