import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchItemBytes, receiveBody } from './received-body';

const blanks = fc.stringMatching(/^[ \t\r\n]{0,3}$/);

describe('batchItemBytes', () => {
  it('gives each item of an array body exactly as it was written, whatever its values and the blanks around them', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.constantFrom(0, 2, '\t'), blanks, blanks, (values, indent, before, after) => {
        const written = values.map((value) => JSON.stringify(value, null, indent));
        const body = receiveBody(Buffer.from(`${before}[${before}${written.join(`${after},${before}`)}${after}]${after}`));
        expect(batchItemBytes(body).map((item) => item.toString('utf8'))).toEqual(written);
      }),
      { numRuns: 500 },
    );
  });

  it('is not misled by quotes, backslashes and brackets inside strings', () => {
    const items = ['"a\\"],["', '{"k":"\\\\"}', '"\\\\\\"]"', '{"t":"héllo 👋 ]}[{"}', '[1,[2,{"x":[]}]]', 'null'];
    expect(batchItemBytes(receiveBody(Buffer.from(`[${items.join(' ,\n')}]`))).map(String)).toEqual(items);
  });
});
