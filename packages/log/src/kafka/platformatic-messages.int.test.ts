import { setFlagsFromString } from 'node:v8';
import { Consumer } from '@platformatic/kafka';
import { afterAll, describe, expect, it } from 'vitest';
import { kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { TOPICS } from '../topics';
import { createPlatformaticLog } from './platformatic-log';

setFlagsFromString('--allow-natives-syntax');
/** V8's own answer to whether two objects share a hidden class (compiled after the flag is set). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax compiles only in code made after the flag is set
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Enough for V8 to have settled how it builds the object: the unpatched line shares maps for the first nine or so. */
const MESSAGES = 50;

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
});
