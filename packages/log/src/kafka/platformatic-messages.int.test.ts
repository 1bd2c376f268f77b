import { tracingChannel } from 'node:diagnostics_channel';
import { setFlagsFromString } from 'node:v8';
import { Consumer } from '@platformatic/kafka';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import type { OutgoingRecord } from '../event-log';
import { TOPICS } from '../topics';
import { closeForcibly } from './platformatic-close';
import { createPlatformaticLog } from './platformatic-log';
import { DESERIALIZERS, type KafkaMessage } from './platformatic-stream';

setFlagsFromString('--allow-natives-syntax');
/** V8's own answer to whether two objects share a hidden class (compiled after the flag is set). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax compiles only in code made after the flag is set
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Enough for V8 to have settled how it builds the object: the unpatched line shares maps for the first nine or so. */
const MESSAGES = 50;
/** Enough that the client's own views, for its requests and responses, are few beside one a message. */
const TEXTS = 200;

/**
 * Records appended through our log under a namespace of their own, and a client consumer that reads them as our log's
 * does (text keys and headers, values as they are): the patch's paths for our own messages.
 */
async function appendedForOurReader(name: string, records: readonly OutgoingRecord[]) {
  const namespace = uniqueNamespace(name);
  const log = await createPlatformaticLog({ brokers: kafkaBrokers(), clientId: `test-${name}`, namespace });
  try {
    await log.append(records);
  } finally {
    await log.close();
  }
  const reader = new Consumer({ clientId: `test-${name}`, bootstrapBrokers: kafkaBrokers(), groupId: `${namespace}reader`, deserializers: DESERIALIZERS });
  return { topic: `${namespace}${TOPICS.events}`, reader };
}

/** The first `count` messages the reader reads from the topic, in the order of their calls (`call-<n>` keys), the stream closed. */
async function readInCallOrder(reader: Awaited<ReturnType<typeof appendedForOurReader>>['reader'], topic: string, count: number): Promise<KafkaMessage[]> {
  const read: KafkaMessage[] = [];
  const stream = await reader.consume({ topics: [topic], mode: 'earliest', autocommit: false });
  for await (const message of stream) if (read.push(message) === count) break;
  await stream.close();
  // The keys spread the messages over partitions, read one partition after another.
  const ofCall = (m: KafkaMessage) => Number(m.key.slice('call-'.length));
  return read.sort((a, b) => ofCall(a) - ofCall(b));
}

describe('@platformatic/kafka as patched (patches/@platformatic+kafka+1.35.0.patch)', () => {
  const namespace = uniqueNamespace('platformatic-messages');
  const consumer = new Consumer({ clientId: 'test-platformatic-messages', bootstrapBrokers: kafkaBrokers(), groupId: `${namespace}reader` });
  afterAll(() => consumer.close(true));

  it('reads every message of a fetch into one hidden class, not one per message', async () => {
    const log = await createPlatformaticLog({ brokers: kafkaBrokers(), clientId: 'test-platformatic-messages', namespace });
    try {
      await log.append(Array.from({ length: MESSAGES }, (_, n) => ({ topic: TOPICS.events, key: 'one-key', value: Buffer.from(`event ${n}`) })));
    } finally {
      await log.close();
    }
    // The deserializer is handed the object the stream builds for each record before anything else touches it.
    const built: object[] = [];
    const stream = await consumer.consume({
      topics: [`${namespace}${TOPICS.events}`],
      mode: 'earliest',
      autocommit: false,
      deserializers: {
        value: (data, _headers, message) => {
          if (message) built.push(message);
          return data;
        },
      },
    });
    for await (const _message of stream) if (built.length === MESSAGES) break;
    await stream.close();
    // Unpatched, `{ ...record, topic, partition }` gives each message from about the tenth on a map of its own (~4 µs a message on Node 20).
    expect(built).toHaveLength(MESSAGES);
    expect(haveSameMap(built[MESSAGES - 2] as object, built[MESSAGES - 1] as object)).toBe(true);
  });

  it('reads a message of ours with one buffer view, its value: its key and headers are read as text from the batch', async () => {
    const headers = (n: number) => ({ 'earshot-type': 'call.started', 'earshot-schema': String(n % 3), 'earshot-note': n % 2 === 0 ? '' : 'é'.repeat(n) });
    const { topic, reader } = await appendedForOurReader(
      'platformatic-texts',
      Array.from({ length: TEXTS }, (_, n) => ({ topic: TOPICS.events, key: `call-${n}`, value: Buffer.from(`event ${n}`), headers: headers(n) })),
    );
    // Every view made while the messages are fetched and read, by the client or anything else in this process.
    const views = vi.spyOn(Buffer.prototype, 'subarray');
    let read: KafkaMessage[] | undefined;
    let made: number | undefined;
    try {
      read = await readInCallOrder(reader, topic, TEXTS);
      made = views.mock.calls.length;
    } finally {
      views.mockRestore();
      await closeForcibly(reader);
    }
    expect(read?.map((m) => ({ key: m.key, value: m.value.toString(), headers: Object.fromEntries(m.headers) }))).toEqual(
      Array.from({ length: TEXTS }, (_, n) => ({ key: `call-${n}`, value: `event ${n}`, headers: headers(n) })),
    );
    // Unpatched, the key and each header's name and value were views too: seven more a message here (1,600 and more in
    // all). The rest are the client's own, for its requests and responses (~40).
    expect(made).toBeLessThan(2 * TEXTS);
  });

  it("reads a message's headers from the batch only when they are asked for", async () => {
    const headers = (n: number) => ({ 'earshot-type': 'call.started', 'earshot-seq': String(n), ...(n % 5 === 0 ? { 'earshot-note': 'é' } : {}) });
    const { topic, reader } = await appendedForOurReader(
      'platformatic-lazy',
      Array.from({ length: MESSAGES }, (_, n) => ({ topic: TOPICS.events, key: `call-${n}`, value: Buffer.from(`event ${n}`), headers: headers(n) })),
    );
    // Headers are read as one latin1 string a message (UTF-8 past ASCII, header by header): keys and values never so.
    const texts = vi.spyOn(Buffer.prototype, 'toString');
    const latin1 = () => texts.mock.calls.filter(([encoding]) => encoding === 'latin1').length;
    let waiting: number | undefined;
    try {
      const read = await readInCallOrder(reader, topic, MESSAGES);
      waiting = latin1();
      expect(read.map((m) => ({ key: m.key, headers: m.record?.headerRecord() }))).toEqual(
        Array.from({ length: MESSAGES }, (_, n) => ({ key: `call-${n}`, headers: headers(n) })),
      );
      expect(latin1()).toBe(MESSAGES);
      expect(Object.fromEntries(read[5]?.headers ?? [])).toEqual(headers(5));
    } finally {
      texts.mockRestore();
      await closeForcibly(reader);
    }
    // Read as they arrived, every message's headers were text before anything asked (MESSAGES here).
    expect(waiting).toBe(0);
  });

  it('tells a tracer of every message it reads when one listens (it makes their contexts only then)', async () => {
    const { topic, reader } = await appendedForOurReader(
      'platformatic-traced',
      Array.from({ length: MESSAGES }, (_, n) => ({ topic: TOPICS.events, key: `call-${n}`, value: Buffer.from(`event ${n}`) })),
    );
    const receives = tracingChannel('plt:kafka:consumer:receives');
    const seen: { started: number; ended: string[] } = { started: 0, ended: [] };
    const tracer = {
      start: () => void (seen.started += 1),
      asyncStart: (context: unknown) => void seen.ended.push((context as { result: KafkaMessage }).result.value.toString()),
    };
    receives.subscribe(tracer);
    const read: string[] = [];
    try {
      const stream = await reader.consume({ topics: [topic], mode: 'earliest', autocommit: false });
      for await (const message of stream) if (read.push(message.value.toString()) === MESSAGES) break;
      await stream.close();
    } finally {
      receives.unsubscribe(tracer);
      await closeForcibly(reader);
    }
    expect(seen.started).toBeGreaterThanOrEqual(MESSAGES);
    expect(seen.ended.slice(0, MESSAGES).sort()).toEqual([...read].sort());
  });
});
