import { connect, type Socket } from 'node:net';
import { Kafka, logLevel, type Admin, type ISocketFactory } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerOutage, kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { idempotentProducer, type IdempotentProducer } from './idempotent-producer';

/** kafkajs's own socket factory, with the broker's answers and connections cut as the outage says. */
function socketsOf(outage: BrokerOutage): ISocketFactory {
  return ({ host, port, onConnect }) => {
    // Port 1 refuses at once, as a broker's port does while it restarts.
    const socket: Socket = outage.refusing ? connect({ host: '127.0.0.1', port: 1 }, onConnect) : connect({ host, port }, onConnect);
    outage.watch(socket);
    return socket;
  };
}

describe('the idempotent producer across a broker restart', () => {
  const topic = `${uniqueNamespace('producer')}events`;
  let admin: Admin;
  let producer: IdempotentProducer;
  const outage = new BrokerOutage();
  const send = (values: string[]) => producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages: values.map((value) => ({ key: 'call', value })) }] });

  beforeAll(async () => {
    admin = new Kafka({ clientId: 'test-producer-admin', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }] });
    producer = await idempotentProducer({ clientId: 'test-producer', brokers: kafkaBrokers(), socketFactory: socketsOf(outage) });
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
