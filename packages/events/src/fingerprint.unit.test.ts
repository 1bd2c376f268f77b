import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { fingerprintHex, parsingCanonicalForm, rabinFingerprint64 } from './fingerprint';

/**
 * From Apache Avro's share/test/data/schema-tests.txt, the vectors every Avro
 * implementation checks its fingerprints against: each canonical form with its
 * CRC-64-AVRO fingerprint as a signed 64-bit decimal (a Java long).
 */
const VECTORS: ReadonlyArray<readonly [input: string, canonical: string, fingerprint: string]> = [
  ['"null"', '"null"', '7195948357588979594'],
  ['{"type":"null"}', '"null"', '7195948357588979594'],
  ['"boolean"', '"boolean"', '-6970731678124411036'],
  ['"int"', '"int"', '8247732601305521295'],
  ['"long"', '"long"', '-3434872931120570953'],
  ['"float"', '"float"', '5583340709985441680'],
  ['"double"', '"double"', '-8181574048448539266'],
  ['"bytes"', '"bytes"', '5746618253357095269'],
  ['"string"', '"string"', '-8142146995180207161'],
  ['[ "int"  ]', '["int"]', '-5232228896498058493'],
  ['[ "int" , {"type":"boolean"} ]', '["int","boolean"]', '5392556393470105090'],
  ['{"fields":[], "type":"record", "name":"foo"}', '{"name":"foo","type":"record","fields":[]}', '-4824392279771201922'],
  ['{"fields":[], "type":"record", "name":"foo", "namespace":"x.y"}', '{"name":"x.y.foo","type":"record","fields":[]}', '5916914534497305771'],
  ['{"fields":[], "type":"record", "name":"a.b.foo", "namespace":"x.y"}', '{"name":"a.b.foo","type":"record","fields":[]}', '-4616218487480524110'],
  ['{"fields":[], "type":"record", "name":"foo", "doc":"foo", "aliases":["foo","bar"]}', '{"name":"foo","type":"record","fields":[]}', '-4824392279771201922'],
  [
    '{"fields":[{"type":{"type":"boolean"}, "name":"f1"}], "type":"record", "name":"foo"}',
    '{"name":"foo","type":"record","fields":[{"name":"f1","type":"boolean"}]}',
    '7843277075252814651',
  ],
  [
    '{ "fields":[{"type":"boolean", "aliases":[], "name":"f1", "default":true}, {"order":"descending","name":"f2","doc":"Hello","type":"int"}], "type":"record", "name":"foo"}',
    '{"name":"foo","type":"record","fields":[{"name":"f1","type":"boolean"},{"name":"f2","type":"int"}]}',
    '-4860222112080293046',
  ],
  ['{"type":"enum", "name":"foo", "symbols":["A1"]}', '{"name":"foo","type":"enum","symbols":["A1"]}', '-6342190197741309591'],
  [
    '{"namespace":"x.y.z", "type":"enum", "name":"foo", "doc":"foo bar", "symbols":["A1", "A2"]}',
    '{"name":"x.y.z.foo","type":"enum","symbols":["A1","A2"]}',
    '-4448647247586288245',
  ],
  ['{"name":"foo","type":"fixed","size":15}', '{"name":"foo","type":"fixed","size":15}', '1756455273707447556'],
  ['{"namespace":"x.y.z", "type":"fixed", "name":"foo", "doc":"foo bar", "size":32}', '{"name":"x.y.z.foo","type":"fixed","size":32}', '-3064184465700546786'],
  ['{ "items":{"type":"null"}, "type":"array"}', '{"type":"array","items":"null"}', '-589620603366471059'],
  ['{ "values":"string", "type":"map"}', '{"type":"map","values":"string"}', '-8732877298790414990'],
  [
    '{"name":"PigValue","type":"record", "fields":[{"name":"value", "type":["null", "int", "long", "PigValue"]}]}',
    '{"name":"PigValue","type":"record","fields":[{"name":"value","type":["null","int","long","PigValue"]}]}',
    '-1759257747318642341',
  ],
];

describe('CRC-64-AVRO fingerprint', () => {
  it('of the null schema is the value published in the Avro specification', () => {
    expect(rabinFingerprint64('"null"')).toBe(0x63dd24e7cc258f8an);
    expect(fingerprintHex(rabinFingerprint64('"null"'))).toBe('63dd24e7cc258f8a');
  });

  it.each(VECTORS)('of %s matches the Avro test vector', (_input, canonical, fingerprint) => {
    expect(BigInt.asIntN(64, rabinFingerprint64(canonical))).toBe(BigInt(fingerprint));
  });

  it('of the empty union matches the Avro test vector', () => {
    // avsc cannot parse an empty union, so this vector checks the fingerprint alone.
    expect(BigInt.asIntN(64, rabinFingerprint64('[]'))).toBe(-1241056759729112623n);
  });

  it('hashes bytes and their UTF-8 text alike', () => {
    expect(rabinFingerprint64(Buffer.from('"int"'))).toBe(rabinFingerprint64('"int"'));
  });
});

describe('Parsing Canonical Form', () => {
  it.each(VECTORS)('of %s matches the Avro test vector', (input, canonical) => {
    expect(parsingCanonicalForm(avro.Type.forSchema(JSON.parse(input)))).toBe(canonical);
  });

  it('drops logical types, docs and defaults, which do not change the bytes', () => {
    const type = avro.Type.forSchema({
      type: 'record',
      name: 'At',
      namespace: 'earshot.events',
      doc: 'a moment',
      fields: [{ name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' }, default: 0, doc: 'when' }],
    });
    expect(parsingCanonicalForm(type)).toBe('{"name":"earshot.events.At","type":"record","fields":[{"name":"at","type":"long"}]}');
  });
});
