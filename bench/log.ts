import { randomBytes } from 'node:crypto';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import {
  Admin as PlatformaticAdmin,
  Consumer as PlatformaticConsumer,
  Producer as PlatformaticProducer,
  ProduceAcks,
  stringDeserializers,
} from '@platformatic/kafka';
import { encodeEvent } from '@earshot/events';
import { sampleEvent } from '@earshot/events/samples';
import { createKafkaLog, TOPICS, type OutgoingRecord } from '@earshot/log';
import type { Bench, BenchContext } from './run';

/**
 * The EventLog port against the clients it could be built on: the same Avro
 * bytes through our Kafka adapter, a plain kafkajs producer and consumer, and
 * @platformatic/kafka, one after the other against the same broker.
 */
const CHUNK = 100;
const CONCURRENCY = 32;

function options(args: string[]): { events: number } {
  const at = args.indexOf('--events');
  return { events: at >= 0 ? Number(args[at + 1]) : 50_000 };
}

function records(count: number): OutgoingRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const event = sampleEvent('agent.response.generated', {
      idempotency_key: `bench-${i}`,
      tenant: '7b0c1f4e-3d2a-4c8b-9e6f-1a2b3c4d5e6f',
      call: { provider_call_id: `call-${i % 500}`, agent_id: `agent-${i % 7}` },
    });
    return { topic: TOPICS.events, key: `${event.tenant}:${event.call?.provider_call_id}`, value: encodeEvent(event), headers: { 'earshot-type': event.type } };
  });
}

async function inParallel(total: number, send: (from: number, to: number) => Promise<unknown>, progress: (done: number) => void): Promise<void> {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const from = next;
        next = Math.min(total, next + CHUNK);
        await send(from, next);
        done += next - from;
        progress(done);
      }
    }),
  );
}

async function timed(label: string, total: number, context: BenchContext, work: (progress: (n: number) => void) => Promise<void>): Promise<number> {
  const started = performance.now();
  await work((n) => context.progress(`${label}: ${n.toLocaleString()} / ${total.toLocaleString()}`));
  const perSecond = Math.round(total / ((performance.now() - started) / 1000));
  context.report(`${label.padEnd(40)} ${perSecond.toLocaleString().padStart(10)} events/s`);
  return perSecond;
}

async function waitFor(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
}

const bench: Bench = async (context) => {
  const { events } = options(context.args);
  const batch = records(events);
  const bytes = batch.reduce((sum, r) => sum + r.value.length, 0);
  context.report(
    `${events.toLocaleString()} Avro events, ${Math.round(bytes / events)} bytes each, batches of ${CHUNK}, ${CONCURRENCY} concurrent appends; consume times include joining the group`,
  );
  const run = randomBytes(3).toString('hex');

  const log = await createKafkaLog({ brokers: context.kafkaBrokers, clientId: 'bench-log', namespace: `bench-${run}-port.` });
  const portAppend = await timed(`EventLog (${process.env.EARSHOT_KAFKA_CLIENT || 'default'} adapter) append`, events, context, (progress) =>
    inParallel(events, (from, to) => log.append(batch.slice(from, to)), progress),
  );
  let consumed = 0;
  const portConsume = await timed(`EventLog (${process.env.EARSHOT_KAFKA_CLIENT || 'default'} adapter) consume`, events, context, async (progress) => {
    const consumer = await log.consume({ group: 'bench', topics: [TOPICS.events], onBatch: async (records) => void progress((consumed += records.length)) });
    await waitFor(() => consumed >= events);
    await consumer.stop();
  });
  await log.close();

  const kafka = new Kafka({ clientId: 'bench-kafkajs', brokers: context.kafkaBrokers, logLevel: logLevel.NOTHING });
  const topic = `bench-${run}-kafkajs`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 6 }] });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const kafkajsAppend = await timed('kafkajs producer (idempotent, acks=all)', events, context, (progress) =>
    inParallel(
      events,
      (from, to) => producer.send({ topic, acks: -1, messages: batch.slice(from, to).map((r) => ({ key: r.key, value: r.value, headers: r.headers })) }),
      progress,
    ),
  );
  await producer.disconnect();
  let kafkajsSeen = 0;
  const kafkajsConsume = await timed('kafkajs consumer', events, context, async (progress) => {
    const consumer = kafka.consumer({ groupId: `bench-${run}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachBatch: async ({ batch: b }) => void progress((kafkajsSeen += b.messages.length)) });
    await waitFor(() => kafkajsSeen >= events);
    await consumer.disconnect();
  });
  await admin.disconnect();

  const platformaticTopic = `bench-${run}-platformatic`;
  const bootstrapBrokers = context.kafkaBrokers;
  // The broker does not create topics on demand (as in production), so each client's topic is made first.
  const pAdmin = new PlatformaticAdmin({ clientId: 'bench-platformatic', bootstrapBrokers });
  await pAdmin.createTopics({ topics: [platformaticTopic], partitions: 6, replicas: 1 });
  await pAdmin.close();
  const pProducer = new PlatformaticProducer({ clientId: 'bench-platformatic', bootstrapBrokers, idempotent: true, acks: ProduceAcks.ALL });
  // Its idempotent producer assigns sequence numbers per send, so concurrent sends fail with
  // OUT_OF_ORDER_SEQUENCE_NUMBER; one send at a time is what kafkajs does internally with one request in flight.
  let inFlight: Promise<unknown> = Promise.resolve();
  const sendInOrder = (from: number, to: number) => {
    const messages = batch.slice(from, to).map((r) => ({
      topic: platformaticTopic,
      key: Buffer.from(r.key),
      value: r.value,
      headers: new Map(Object.entries(r.headers ?? {}).map(([k, v]) => [Buffer.from(k), Buffer.from(v)])),
    }));
    inFlight = inFlight.then(() => pProducer.send({ messages }));
    return inFlight;
  };
  const platformaticAppend = await timed('@platformatic/kafka producer (idempotent)', events, context, (progress) => inParallel(events, sendInOrder, progress));
  await pProducer.close();
  let platformaticSeen = 0;
  const platformaticConsume = await timed('@platformatic/kafka consumer', events, context, async (progress) => {
    const consumer = new PlatformaticConsumer({
      groupId: `bench-${run}-p`,
      clientId: 'bench-platformatic',
      bootstrapBrokers,
      deserializers: { ...stringDeserializers, value: (b?: Buffer) => b },
    });
    const stream = await consumer.consume({ topics: [platformaticTopic], mode: 'earliest', autocommit: true });
    stream.on('data', () => progress((platformaticSeen += 1)));
    await waitFor(() => platformaticSeen >= events);
    await stream.close();
    await consumer.close();
  });

  return {
    events,
    port_append_events_per_s: portAppend,
    port_consume_events_per_s: portConsume,
    kafkajs_append_events_per_s: kafkajsAppend,
    kafkajs_consume_events_per_s: kafkajsConsume,
    platformatic_append_events_per_s: platformaticAppend,
    platformatic_consume_events_per_s: platformaticConsume,
  };
};

export default bench;
