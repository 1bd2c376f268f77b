import { describe, expect, it } from 'vitest';
import { arrayItems, batchInputs } from './array-items';

/** JSON.parse is the oracle: each slice must parse to the element the whole body parsed to. */
function expectSlicesOf(text: string): void {
  const raw = Buffer.from(text);
  const parsed = JSON.parse(text) as unknown[];
  const slices = arrayItems(raw, parsed.length);
  expect(slices).toBeDefined();
  expect(slices?.map((s) => JSON.parse(s.toString('utf8')) as unknown)).toEqual(parsed);
}

describe('arrayItems', () => {
  it('cuts a batch body into the exact bytes of each element', () => {
    expectSlicesOf('[{"a":1},{"b":[1,2,{"c":"]"}]}]');
    expectSlicesOf(' [ {"s":"a,b]}{["} ,\n\t{"t":"\\"quoted\\" \\\\"} ] ');
    expectSlicesOf('[{"u":"héllo ☎ 🎧"},{"e":"\\u005d\\u002c"}]');
    expectSlicesOf('[1,"x",null,[[]],{}]');
    expectSlicesOf('[]');
  });

  it('keeps the bytes as they arrived, spacing inside an element included', () => {
    const text = '[ {"a" : 1} , {"b":2}]';
    expect(arrayItems(Buffer.from(text), 2)?.map(String)).toEqual(['{"a" : 1}', '{"b":2}']);
  });

  it('answers undefined when the count disagrees, and the batch falls back to serializing', () => {
    expect(arrayItems(Buffer.from('[{"a":1}]'), 2)).toBeUndefined();
    const inputs = batchInputs(Buffer.from('[{"a":1}]'), [{ a: 1 }, { b: 2 }]);
    expect(inputs.map((i) => i.raw.toString())).toEqual(['{"a":1}', '{"b":2}']);
    expect(inputs[1]?.label).toBe('envelope 1 of the batch');
  });
});
