import { createRequire } from 'node:module';
import { createRecordsBatch, type MessageRecord } from '@platformatic/kafka';
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
