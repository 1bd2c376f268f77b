import { createRequire } from 'node:module';
import { createRecordsBatch, readRecordsBatch, Reader, stringDeserializer, Writer, type MessageRecord } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';

/** kafkajs's own record batch decoder and CRC-32C: another implementation of Kafka's format reads what the patched encoder wrote. */
const require = createRequire(import.meta.url);
interface KafkajsDecoder {
  readInt32(): number;
}
interface KafkajsRecord {
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  offset: string;
  headers: Record<string, Buffer>;
}
const Decoder = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => KafkajsDecoder;
const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (decoder: KafkajsDecoder) => Promise<{ records: KafkajsRecord[] }>;
const crc32C = require('kafkajs/src/protocol/recordBatch/crc32C') as (buffer: Buffer) => number;
interface KafkajsRecordInput {
  offsetDelta: number;
  timestampDelta: unknown;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer>;
}
const encodeRecord = require('kafkajs/src/protocol/recordBatch/record/v0') as (record: KafkajsRecordInput) => unknown;
const { RecordBatch: encodeBatch } = require('kafkajs/src/protocol/recordBatch/v0') as {
  RecordBatch: (batch: { compression: number; firstOffset: unknown; firstTimestamp: number; records: unknown[] }) => Promise<{ buffer: Buffer }>;
};
const Long = require('kafkajs/src/utils/long') as { fromString(value: string): unknown };
const GZIP = 1;

/** Where a batch's CRC sits, and where what it covers begins (Kafka's RecordBatch v2: offset, length, epoch, magic). */
const CRC_AT = 8 + 4 + 4 + 1;

const FIRST = 1_764_000_000_000n;

/**
 * Lengths of one, two and three varint bytes, nulls, no headers, and timestamps before the first and 2^31 ms after it
 * (which 1.35 itself wrote wrong: its varlong kept 32 bits).
 */
function messages(): MessageRecord[] {
  return [
    {
      topic: 't',
      key: Buffer.from('call-1'),
      value: Buffer.from('{"a":1}'),
      timestamp: FIRST,
      headers: new Map([[Buffer.from('earshot.type'), Buffer.from('call.started')]]),
    },
    { topic: 't', key: null as unknown as Buffer, value: Buffer.alloc(200, 1), timestamp: FIRST - 5n },
    { topic: 't', key: Buffer.from('é'.repeat(80)), value: null as unknown as Buffer, timestamp: FIRST + 2n ** 31n + 7n, headers: new Map() },
    {
      topic: 't',
      key: Buffer.from('call-4'),
      value: Buffer.alloc(20_000, 2),
      timestamp: FIRST + 1n,
      headers: new Map([
        [Buffer.from('a'), Buffer.alloc(0)],
        [Buffer.from('b'), Buffer.alloc(300, 3)],
      ]),
    },
  ];
}

describe('@platformatic/kafka record batches as patched (patches/@platformatic+kafka+1.35.0.patch)', () => {
  it('writes every record into one buffer rather than a few per value', () => {
    const batch = createRecordsBatch(Array.from({ length: 100 }, () => messages()).flat());
    // Unpatched, each varint, key, value and header name was a buffer of its own: 4,613 here.
    expect(batch.buffers.length).toBeLessThan(20);
  });

  it('writes batches another implementation of the format reads back whole, CRC included', async () => {
    const sent = messages();
    const bytes = createRecordsBatch(messages()).buffer;
    expect(bytes.readUInt32BE(CRC_AT)).toBe(crc32C(bytes.subarray(CRC_AT + 4)) >>> 0);

    const { records } = await decodeBatch(new Decoder(bytes));
    expect(records.map((r) => ({ key: r.key, value: r.value, timestamp: BigInt(r.timestamp), offset: r.offset, headers: r.headers }))).toEqual(
      sent.map((m, i) => ({
        key: m.key ?? null,
        value: m.value ?? null,
        timestamp: m.timestamp,
        offset: String(i),
        headers: Object.fromEntries([...(m.headers ?? new Map<Buffer, Buffer>())].map(([name, value]) => [name.toString(), value])),
      })),
    );
  });
});

/** Bytes as a socket hands them over: chunks of their own, never views of one buffer. */
function arrived(bytes: Buffer, chunk: number): Reader {
  const writer = Writer.create();
  for (let at = 0; at < bytes.length; at += chunk) writer.append(Buffer.from(bytes.subarray(at, at + chunk)));
  return Reader.from(writer);
}

/** Deltas of one and several varint bytes, a negative one and one past 2^31 (a varlong wider than an int), nulls, no headers. */
const written: KafkajsRecordInput[] = [
  { offsetDelta: 0, timestampDelta: 0, key: Buffer.from('call-1'), value: Buffer.from('{"a":1}'), headers: { 'earshot.type': Buffer.from('call.started') } },
  { offsetDelta: 1, timestampDelta: -5, key: null, value: Buffer.alloc(200, 1), headers: {} },
  { offsetDelta: 2, timestampDelta: Long.fromString(String(2n ** 31n + 7n)), key: Buffer.from('é'.repeat(80)), value: null, headers: {} },
  { offsetDelta: 300, timestampDelta: 1, key: Buffer.from('call-4'), value: Buffer.alloc(20_000, 2), headers: { a: Buffer.alloc(0), b: Buffer.alloc(300, 3) } },
  // Text past ASCII, and bytes that are not UTF-8, beside ASCII headers of the same record.
  {
    offsetDelta: 301,
    timestampDelta: 2,
    key: Buffer.from('call-5'),
    value: Buffer.from('{}'),
    headers: { 'earshot.type': Buffer.from('call.ended'), note: Buffer.from('café ☎'), raw: Buffer.from([0x41, 0xff, 0x42]) },
  },
];
const expected = [
  { offsetDelta: 0, timestampDelta: 0n, key: 'call-1', value: Buffer.from('{"a":1}'), headers: [['earshot.type', 'call.started']] },
  { offsetDelta: 1, timestampDelta: -5n, key: null, value: Buffer.alloc(200, 1), headers: [] },
  { offsetDelta: 2, timestampDelta: 2n ** 31n + 7n, key: 'é'.repeat(80), value: null, headers: [] },
  {
    offsetDelta: 300,
    timestampDelta: 1n,
    key: 'call-4',
    value: Buffer.alloc(20_000, 2),
    headers: [
      ['a', ''],
      ['b', '\u0003'.repeat(300)],
    ],
  },
  {
    offsetDelta: 301,
    timestampDelta: 2n,
    key: 'call-5',
    value: Buffer.from('{}'),
    headers: [
      ['earshot.type', 'call.ended'],
      ['note', 'café ☎'],
      ['raw', 'A\ufffdB'],
    ],
  },
];

async function kafkajsBatch(compression = 0): Promise<Buffer> {
  const { buffer } = await encodeBatch({ compression, firstOffset: Long.fromString('42'), firstTimestamp: Number(FIRST), records: written.map(encodeRecord) });
  return buffer;
}

/** What the patched reader adds to a record (BatchRecord in protocol/records.js): its key and headers read as text. */
interface TextRecord {
  keyText(): string | undefined;
  headerTexts(): Map<string | undefined, string | undefined>;
}

const readable = (records: ReturnType<typeof readRecordsBatch>['records']) =>
  records.map((r) => ({
    offsetDelta: r.offsetDelta,
    timestampDelta: r.timestampDelta,
    key: r.key?.toString() ?? null,
    value: r.value,
    headers: r.headers.map(([name, value]) => [name?.toString() ?? null, value?.toString() ?? null]),
  }));

describe('@platformatic/kafka record batches read as patched', () => {
  it('reads what another implementation of the format wrote, arriving in chunks that split every field', async () => {
    for (const chunk of [1, 7, 4096]) {
      const reader = arrived(await kafkajsBatch(), chunk);
      const batch = readRecordsBatch(reader);
      expect(batch.firstOffset).toBe(42n);
      expect(readable(batch.records)).toEqual(expected);
      expect(reader.remaining).toBe(0);
    }
  });

  it('reads a compressed batch the same', async () => {
    expect(readable(readRecordsBatch(arrived(await kafkajsBatch(GZIP), 512)).records)).toEqual(expected);
  });

  it("reads a batch's records from one buffer however the response arrived", async () => {
    const { records } = readRecordsBatch(arrived(await kafkajsBatch(), 64));
    // Unpatched, each key, value and header was a view of whichever chunk it lay in, or a copy of its own across two.
    const held = new Set(records.flatMap((r) => [r.key, r.value, ...r.headers.flat()]).flatMap((b) => (b === null ? [] : [b.buffer])));
    expect(held.size).toBe(1);
  });

  it('reads keys and headers as text where they lie in the batch, as stringDeserializer reads their buffers', async () => {
    const { records } = readRecordsBatch(arrived(await kafkajsBatch(), 64));
    const texts = records.map((record) => record as unknown as TextRecord);
    expect(texts.map((record) => record.keyText())).toEqual(['call-1', undefined, 'é'.repeat(80), 'call-4', 'call-5']);
    expect(texts.map((record) => [...record.headerTexts()])).toEqual(expected.map((record) => record.headers));
    for (const [i, record] of records.entries()) {
      expect(texts[i]?.keyText()).toBe(stringDeserializer(record.key ?? undefined));
      expect([...(texts[i]?.headerTexts() ?? [])]).toEqual(
        record.headers.map(([name, value]) => [stringDeserializer(name ?? undefined), stringDeserializer(value ?? undefined)]),
      );
    }
  });

  it("refuses a record whose fields do not take the length it gives, as Kafka's own reader does", async () => {
    const bytes = await kafkajsBatch();
    // The first record's length, the first byte after the batch's 61-byte head: one more than its fields take.
    bytes[61] = (bytes[61] ?? 0) + 2;
    expect(() => readRecordsBatch(arrived(bytes, 4096))).toThrow(/Invalid record size: expected \d+ bytes, read \d+/);
  });
});
