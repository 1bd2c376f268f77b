import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMaps, pack, unpack, type Parts } from './registers';

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

describe('pack', () => {
  type Turn = { totalMs: number; interrupted: boolean; text: string };
  const register = <T>(value: fc.Arbitrary<T>) =>
    fc.option(fc.record({ at: fc.constantFrom('2026-01-08T09:00:01.000Z|a', '2026-01-08T09:00:02.000Z|b'), value }));
  const parts: fc.Arbitrary<Parts<Turn>> = fc.record({ totalMs: register(fc.nat()), interrupted: register(fc.boolean()), text: register(fc.string()) });

  it('stores parts one event set under its one stamp, and parts from several events as they are', () => {
    const at = '2026-01-08T09:00:01.000Z|turn';
    expect(pack<Turn>({ totalMs: { at, value: 800 }, interrupted: { at, value: false }, text: null })).toEqual({
      at,
      value: { totalMs: 800, interrupted: false, text: null },
    });
    const mixed = { totalMs: { at, value: 800 }, interrupted: { at: `${at}2`, value: true }, text: null };
    expect(pack<Turn>(mixed)).toBe(mixed);
    const none = { totalMs: null, interrupted: null, text: null };
    expect(pack<Turn>(none)).toBe(none);
  });

  it('gives back the parts it was given', () => {
    fc.assert(
      fc.property(parts, (p) => {
        expect(unpack(pack(p))).toEqual(p);
      }),
    );
  });
});
