import { connect, type Socket } from 'node:net';
import { Kafka, logLevel, type Admin, type ISocketFactory } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { idempotentProducer, type IdempotentProducer } from './idempotent-producer';

/** A broker restart as a client sees it: the answer to a request already stored is lost, then nothing answers for a while. */
class Outage {
  private armed = false;
  private refusing = false;

  /** kafkajs's own socket factory, with the broker's answers and connections cut on demand. */
  readonly sockets: ISocketFactory = ({ host, port, onConnect }) => {
    // Port 1 refuses at once, as a broker's port does while it restarts.
    const socket: Socket = this.refusing ? connect({ host: '127.0.0.1', port: 1 }, onConnect) : connect({ host, port }, onConnect);
    const emit = socket.emit.bind(socket);
    socket.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event !== 'data' || !this.armed) return emit(event, ...args);
      this.armed = false;
      this.refusing = true;
      // A broker going down closes its side: the client hears the end of the stream, then nothing.
      emit('end');
      socket.destroy();
      return true;
    };
    return socket;
  };

  /** The next answer from the broker is lost, and connections are refused for `ms`. */
  cutNextAnswer(ms: number): Promise<void> {
    this.armed = true;
    return new Promise((resolve) => {
      const waiting = setInterval(() => {
        if (!this.refusing) return;
        clearInterval(waiting);
        setTimeout(() => {
          this.refusing = false;
          resolve();
        }, ms);
      }, 10);
    });
  }
}

describe('the idempotent producer across a broker restart', () => {
  const topic = `${uniqueNamespace('producer')}events`;
  let admin: Admin;
  let producer: IdempotentProducer;
  const outage = new Outage();
  const send = (values: string[]) => producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages: values.map((value) => ({ key: 'call', value })) }] });

  beforeAll(async () => {
    admin = new Kafka({ clientId: 'test-producer-admin', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }] });
    producer = await idempotentProducer({ clientId: 'test-producer', brokers: kafkaBrokers(), socketFactory: outage.sockets });
  });
  afterAll(async () => {
    await producer?.disconnect();
    await admin?.deleteTopics({ topics: [topic] });
    await admin?.disconnect();
  });

  async function stored(): Promise<string[]> {
    const [end] = await admin.fetchTopicOffsets(topic);
    const values: string[] = [];
    const consumer = new Kafka({ clientId: 'test-producer-reader', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).consumer({
      groupId: `${topic}-reader`,
    });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          values.push(message.value?.toString() ?? '');
          if (BigInt(message.offset) + 1n >= BigInt(end?.high ?? '0')) resolve();
        },
      });
    });
    await consumer.disconnect();
    return values;
  }

  it('stores a request whose answer was lost once, and the next request as well, after a 15 s outage', async () => {
    await send(['a1']);
    // Longer than kafkajs's default reconnects (8 tries) last: the request stored before the cut must not be given up.
    const back = outage.cutNextAnswer(15_000);
    const lost = send(['b1', 'b2', 'b3']).then(
      () => 'acknowledged',
      (error: unknown) => `failed: ${String(error)}`,
    );
    await back;
    // One request at a time, as the log's batcher sends them.
    const cut = await lost;
    // As many records as the cut request: a producer that rolled its sequence back would have this taken for a duplicate.
    const after = await send(['c1', 'c2', 'c3']).then(
      () => 'acknowledged',
      (error: unknown) => `failed: ${String(error)}`,
    );
    expect({ cut, after, stored: await stored() }).toEqual({
      cut: 'acknowledged',
      after: 'acknowledged',
      stored: ['a1', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3'],
    });
  }, 240_000);
});
