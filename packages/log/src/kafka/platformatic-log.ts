import { randomUUID } from 'node:crypto';
import { Admin, Consumer, type MessagesStream } from '@platformatic/kafka';
import {
  MAX_QUEUED_RECORDS,
  type ConsumeOptions,
  type EventLog,
  type LogPosition,
  type LogRecord,
  type OutgoingRecord,
  type PartitionEnd,
  type ReplayOptions,
  type ReplaySummary,
  type Running,
  type SubscribeOptions,
} from '../event-log';
import { keyPartitioner } from '../partitioner';
import { ALL_TOPICS, PARTITIONS, type TopicName } from '../topics';
import { GroupCommit } from '@earshot/group-commit';
import { fallbackLogger } from '@earshot/telemetry';
import type { KafkaLogOptions } from './kafka-log';
import { enforcePlatformaticRetention } from './platformatic-retention';
import { retentionEntries } from './topic-retention';
import { DESERIALIZERS, drainBatches, type HeaderReader, type KafkaMessage } from './platformatic-stream';
import { creationEntries, creationReplicas, refuseUnsafeLog, requiredDurability, SAFE_PRODUCER } from './log-safety';
import { observePlatformaticLog } from './platformatic-safety';
import { AssignedStarts } from './assigned-starts';
import { PartitionSeeks } from './platformatic-seeks';
import { exactlyOnceProducer } from './platformatic-producer';
import { closeForcibly } from './platformatic-close';
import { refusedByRebalance } from './platformatic-rebalance';
import { keepReading, type Reading } from './keep-reading';

/** Kafka's ListOffsets sentinels: the next offset to be written, and the first one still stored. */
const LATEST = -1n;
const EARLIEST = -2n;
/** The most a live subscription fetches of one partition at once. */
const FANOUT_BYTES_PER_PARTITION = 1024 * 1024;

/**
 * Bytes of records one produce request carries at most. The broker refuses a
 * partition's record batch above `message.max.bytes` (1 MiB by default, for
 * the broker and the topics we create) with MESSAGE_TOO_LARGE: at 2,000
 * records a request, 32 gateway requests of 100 events sharing a few
 * partitions got 503s. A request of all partitions under this bound keeps
 * each partition's batch under it, framing included.
 */
const MAX_REQUEST_BYTES = 900 * 1024;
/** A record's framing in a batch (lengths, offsets, timestamp deltas, attributes), generously. */
const RECORD_OVERHEAD_BYTES = 64;

/** Records in order, cut into produce requests of at most MAX_REQUEST_BYTES (a larger record alone in its own). */
function* produceRequests(records: readonly OutgoingRecord[]): Generator<OutgoingRecord[]> {
  let request: OutgoingRecord[] = [];
  let bytes = 0;
  for (const record of records) {
    let size = RECORD_OVERHEAD_BYTES + Buffer.byteLength(record.key) + record.value.length;
    for (const [name, value] of Object.entries(record.headers ?? {})) size += Buffer.byteLength(name) + Buffer.byteLength(value) + 8;
    if (request.length > 0 && bytes + size > MAX_REQUEST_BYTES) {
      yield request;
      request = [];
      bytes = 0;
    }
    request.push(record);
    bytes += size;
  }
  if (request.length > 0) yield request;
}

/** Kafka's TOPIC_ALREADY_EXISTS, alone or as every error of a response. */
function alreadyExists(error: unknown): boolean {
  const errors: unknown[] = error instanceof Error && 'errors' in error && Array.isArray(error.errors) ? error.errors : [error];
  return errors.length > 0 && errors.every((e) => typeof e === 'object' && e !== null && 'apiId' in e && e.apiId === 'TOPIC_ALREADY_EXISTS');
}

/** Header names are a handful the topic registry sets on every record: each is encoded once rather than once per record. */
const headerNames = new Map<string, Buffer>();

function headerBuffers(headers: Readonly<Record<string, string>> | undefined): Map<Buffer, Buffer> {
  const encoded = new Map<Buffer, Buffer>();
  for (const name in headers) {
    let key = headerNames.get(name);
    if (key === undefined) {
      key = Buffer.from(name);
      if (headerNames.size < 256) headerNames.set(name, key);
    }
    encoded.set(key, Buffer.from(headers[name] as string));
  }
  return encoded;
}

/**
 * A consumed record whose headers are read from the fetched batch when first asked for. Read as it arrived, an
 * event's six headers were ~540 of the ~920 bytes of heap a record held while it waited for its batch, and the
 * collector copied what waited at each scavenge: most of what survived one while a projector caught up.
 */
class ConsumedRecord implements LogRecord {
  #headers: Record<string, string> | undefined;
  /** Private, as the headers' cache: a record's own enumerable fields are its LogRecord fields. */
  readonly #batchRecord: HeaderReader;

  constructor(
    readonly topic: TopicName,
    readonly partition: number,
    readonly offset: string,
    readonly key: string,
    readonly value: Buffer,
    readonly timestamp: number,
    batchRecord: HeaderReader,
  ) {
    this.#batchRecord = batchRecord;
  }

  get headers(): Record<string, string> {
    this.#headers ??= this.#batchRecord.headerRecord();
    return this.#headers;
  }
}

/** The record a message read with DESERIALIZERS carries: only the client as patched gives one. */
function recordOf(message: KafkaMessage): HeaderReader {
  if (message.record === undefined) throw new Error('@platformatic/kafka is not as patched (patches/): run npm install, which applies the patch');
  return message.record;
}

/**
 * A consumed record as it waits for its batch: the port's record, and what the seeks and the commit after it read.
 * The client's message is let go as it arrives: kept, its header Map, texts and bigints were copied by the collector
 * for as long as it waited, beside the record made of them.
 */
class Arrived {
  constructor(
    readonly record: LogRecord,
    /** As the broker names it, as the seeks do. */
    readonly topic: string,
    readonly offset: bigint,
    /** Commits the offset after `offset`: called on this, as the patched client's commit reads the offset of what it is called on. */
    readonly commit: KafkaMessage['commit'],
  ) {}

  get partition(): number {
    return this.record.partition;
  }

  get key(): string {
    return this.record.key;
  }

  get value(): Buffer {
    return this.record.value;
  }
}

/**
 * The EventLog on Apache Kafka through @platformatic/kafka: an idempotent
 * producer with acks=all, commits after the handler. Its idempotent producer
 * advances a partition's sequence number only when the broker answers, so
 * two sends in flight at once carry the same sequence and the broker refuses
 * the second (OUT_OF_ORDER_SEQUENCE_NUMBER, or a silent duplicate ack:
 * platformatic/kafka#326). The group commit below keeps exactly one produce
 * in flight, as kafkajs does with maxInFlightRequests 1, and fills it.
 */
export async function createPlatformaticLog(options: KafkaLogOptions): Promise<EventLog> {
  const namespace = options.namespace ?? '';
  const physical = (topic: TopicName) => `${namespace}${topic}`;
  const logical = new Map<string, TopicName>(ALL_TOPICS.map((t) => [physical(t), t]));
  const toLogical = (name: string): TopicName => {
    const topic = logical.get(name);
    if (!topic) throw new Error(`record from unknown topic ${name}`);
    return topic;
  };
  const base = { clientId: options.clientId, bootstrapBrokers: [...options.brokers], retries: 8, retryDelay: 250 };

  const admin = new Admin(base);
  const brokers = (await settled(() => admin.metadata({ topics: [] }))).brokers.size;
  const required = requiredDurability(brokers, options.minInsyncReplicas);
  const existing = new Set(await admin.listTopics());
  for (const topic of ALL_TOPICS.filter((t) => !existing.has(physical(t)))) {
    try {
      await admin.createTopics({
        topics: [physical(topic)],
        partitions: PARTITIONS[topic],
        replicas: creationReplicas(required, brokers),
        configs: [...creationEntries(required), ...retentionEntries(topic, options.retention ?? {})],
      });
    } catch (error) {
      // Another replica starting at the same moment created it after our listing; its settings are checked below like any topic's.
      if (!alreadyExists(error)) throw error;
    }
  }
  await settled(() => enforcePlatformaticRetention(admin, physical, options.retention ?? {}, options.logger ?? fallbackLogger()));
  try {
    refuseUnsafeLog(await settled(() => observePlatformaticLog(admin, ALL_TOPICS.map(physical))), SAFE_PRODUCER, required);
  } catch (error) {
    await admin.close();
    throw error;
  }
  // Offsets are only answered once each new partition has a leader: asking is how we wait for that.
  const offsetsReader = new Consumer({ ...base, groupId: `${namespace}offsets-${randomUUID()}` });
  const listOffsets = (topics: readonly TopicName[], timestamp: bigint) => offsetsReader.listOffsets({ topics: topics.map(physical), timestamp });
  const offsetAt = async (topic: TopicName, partition: number, timestamp: bigint) =>
    (await settled(() => listOffsets([topic], timestamp))).get(physical(topic))?.[partition] ?? 0n;
  await settled(() => listOffsets(ALL_TOPICS, LATEST));

  const producer = exactlyOnceProducer({ ...base, idempotent: SAFE_PRODUCER.idempotent, acks: SAFE_PRODUCER.acks }, options.deliveryTimeoutMs);
  const partitionOf = keyPartitioner();
  const send = async (records: readonly OutgoingRecord[]): Promise<LogPosition[]> => {
    const messages = records.map((record) => ({
      topic: physical(record.topic),
      key: Buffer.from(record.key),
      value: record.value,
      partition: partitionOf(physical(record.topic), record.key, PARTITIONS[record.topic]),
      headers: headerBuffers(record.headers),
    }));
    const nextOffset = await producer.send(messages);
    return messages.map((message, i) => {
      const slot = `${message.topic}:${message.partition}`;
      const offset = nextOffset.get(slot) ?? 0n;
      nextOffset.set(slot, offset + 1n);
      return { topic: (records[i] as OutgoingRecord).topic, partition: message.partition, offset: offset.toString() };
    });
  };
  const batcher = new GroupCommit<OutgoingRecord, LogPosition>(
    async (records) => {
      const positions: LogPosition[] = [];
      // One request after another: the idempotent producer must not have two in flight (see createPlatformaticLog).
      for (const request of produceRequests(records)) positions.push(...(await send(request)));
      return positions;
    },
    { maxItems: options.maxBatch ?? 2_000, maxQueued: options.maxQueued ?? MAX_QUEUED_RECORDS },
  );

  const logger = options.logger ?? fallbackLogger();
  const running = new Set<Running>();
  /** One run of a consumer: stopping it closes its stream, lets the batch in hand finish, and closes the consumer. */
  const readingOf = (
    consumer: Consumer<string, Buffer, string, string>,
    stream: MessagesStream<string, Buffer, string, string>,
    pumping: Promise<void>,
  ): Reading => {
    let stopped: Promise<void> | undefined;
    return {
      ended: pumping,
      stop: () =>
        (stopped ??= (async () => {
          await stream.close();
          // How it ended is keepReading's to tell.
          await pumping.catch(() => undefined);
          await closeForcibly(consumer);
        })()),
    };
  };
  /** A reader kept reading until stopped, or until the log is closed. */
  const kept = async (what: string, start: () => Promise<Reading>): Promise<Running> => {
    const reader = await keepReading(start, { what, logger });
    const handle: Running = {
      stop: async () => {
        running.delete(handle);
        await reader.stop();
      },
    };
    running.add(handle);
    return handle;
  };

  const toRecord = (message: KafkaMessage): LogRecord =>
    new ConsumedRecord(
      toLogical(message.topic),
      message.partition,
      message.offset.toString(),
      message.key ?? '',
      message.value ?? Buffer.alloc(0),
      Number(message.timestamp),
      recordOf(message),
    );
  const arrivedOf = (message: KafkaMessage) =>
    // eslint-disable-next-line @typescript-eslint/unbound-method -- Arrived calls it on itself, with the message's offset
    new Arrived(toRecord(message), message.topic, message.offset, message.commit);
  const consumerOf = (group: string, maxBytesPerPartition = 4 * 1024 * 1024) =>
    new Consumer({
      ...base,
      groupId: group,
      // A consumer that died stops holding its partitions after 10 s.
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      maxBytesPerPartition,
      maxBytes: 16 * 1024 * 1024,
      // How long an idle broker holds a fetch (records come back as soon as they arrive): at 100 ms, the fetches of an idle
      // `earshot serve` cost the broker 4.6 s of CPU a minute; at 500 ms, the Java client's default, 2.7 s.
      maxWaitTime: 500,
      deserializers: DESERIALIZERS,
    });

  return {
    append: (records) => (records.length === 0 ? Promise.resolve([]) : batcher.add(records)),

    consume: ({ group, topics, onBatch, start }: ConsumeOptions) =>
      kept(`the consumer of group ${group}`, async () => {
        const consumer = consumerOf(`${namespace}${group}`);
        const seeks = new PartitionSeeks();
        const starts = new AssignedStarts(start, async (topic, partition, offset) => {
          // A fetch outside what the log holds fails the stream rather than starting at the nearest end.
          const earliest = await offsetAt(topic, partition, EARLIEST);
          const latest = await offsetAt(topic, partition, LATEST);
          seeks.seek(physical(topic), partition, offset < earliest ? earliest : offset > latest ? latest : offset);
        });
        // The group's classic protocol (the client's default) emits this on every join with the new assignment, before the
        // stream fetches for it; the first join comes within consume(), so the listener is in place before.
        consumer.on('consumer:group:join', ({ assignments = [] }) => {
          seeks.assigned();
          starts.assigned(assignments.flatMap(({ topic, partitions }) => partitions.map((partition) => ({ topic: toLogical(topic), partition }))));
        });
        const stream = await consumer
          .consume({ topics: topics.map(physical), mode: 'committed', fallbackMode: 'earliest', autocommit: false })
          .catch(closedAfter(consumer));
        seeks.attach(stream);
        const pumping = drainBatches<KafkaMessage, Arrived>(
          stream,
          async (received) => {
            const { record: first } = received[0] as Arrived;
            let arrived: Arrived[];
            // A failed handler gets the same records again (nothing was committed): what a restarted consumer would read.
            for (let pause = 100; ; pause = Math.min(pause * 2, 2_000)) {
              try {
                await starts.ready(first.topic, first.partition);
                // Records fetched before a seek (`start`'s or a ReadAgain's) are dropped uncommitted, and read again from the seek.
                arrived = seeks.current(received);
                if (arrived.length === 0) return;
                const answer = await onBatch(arrived.map((a) => a.record));
                if (answer) return starts.readAgain(first.topic, first.partition, answer.readFrom);
                break;
              } catch (error) {
                if (stream.closed) throw error;
                await new Promise((resolve) => setTimeout(resolve, pause));
              }
            }
            try {
              await (arrived[arrived.length - 1] as Arrived).commit();
            } catch (error) {
              // A rebalance is no failure of the batch: the stream follows the new assignment. Any other ends this run, and
              // keepReading starts another, which reads on from the last position committed (this batch again, as the port allows).
              if (!refusedByRebalance(error)) throw error;
            }
          },
          (message) => {
            const arrived = arrivedOf(message);
            return seeks.arrive(message, arrived) ? arrived : undefined;
          },
        );
        return readingOf(consumer, stream, pumping);
      }),

    async replay({ topics, from, onBatch }: ReplayOptions): Promise<ReplaySummary> {
      const ends = await listOffsets(topics, LATEST);
      const starts = await listOffsets(topics, from === 'earliest' ? EARLIEST : BigInt(from.getTime()));
      const remaining = new Map<string, { start: bigint; end: bigint }>();
      for (const [topic, partitionEnds] of ends) {
        partitionEnds.forEach((end, partition) => {
          const start = starts.get(topic)?.[partition] ?? end;
          // Kafka answers -1 for "no record at or after that time".
          if (start >= 0n && start < end) remaining.set(`${topic}:${partition}`, { start, end });
        });
      }
      if (remaining.size === 0) return { records: 0 };
      const consumer = consumerOf(`${namespace}replay-${randomUUID()}`);
      let records = 0;
      try {
        const offsets = [...remaining].map(([slot, range]) => ({ ...splitSlot(slot), offset: range.start }));
        const stream = await consumer.consume({ topics: topics.map(physical), mode: 'manual', offsets, autocommit: false });
        await drainBatches<KafkaMessage, KafkaMessage>(
          stream,
          async (messages) => {
            const first = messages[0] as KafkaMessage;
            const slot = `${first.topic}:${first.partition}`;
            const range = remaining.get(slot);
            if (!range) return;
            const wanted = messages.filter((m) => m.offset >= range.start && m.offset < range.end);
            if (wanted.length > 0) await onBatch(wanted.map(toRecord));
            records += wanted.length;
            if ((messages[messages.length - 1] as KafkaMessage).offset + 1n >= range.end) remaining.delete(slot);
            if (remaining.size === 0) await stream.close();
          },
          asItCame,
        );
      } finally {
        await closeForcibly(consumer);
      }
      return { records };
    },

    async subscribe({ topics, from, onRecord }: SubscribeOptions) {
      // Explicit offsets pin "latest" to the moment of the call, not to a later first fetch.
      const offsets =
        from === 'latest'
          ? [...(await listOffsets(topics, LATEST))].flatMap(([topic, ends]) => ends.map((offset, partition) => ({ topic, partition, offset })))
          : from.map((p) => ({ topic: physical(p.topic), partition: p.partition, offset: BigInt(p.offset) + 1n }));
      /** Per partition, the offset after the last record handed on: a run started again reads on from there. */
      const next = new Map(offsets.map((o) => [`${o.topic}:${o.partition}`, o]));
      return kept('a live subscription', async () => {
        // What one fetch brings reaches every live reader's socket at once: kafkajs's 1 MB a partition, not 4, so a
        // burst stays within what a reading client's socket holds, and only a client that stopped reading is dropped.
        const consumer = consumerOf(`${namespace}fanout-${randomUUID()}`, FANOUT_BYTES_PER_PARTITION);
        const stream = await consumer
          .consume({ topics: topics.map(physical), mode: 'manual', offsets: [...next.values()], autocommit: false })
          .catch(closedAfter(consumer));
        const pumping = drainBatches<KafkaMessage, KafkaMessage>(
          stream,
          async (messages) => {
            for (const message of messages) onRecord(toRecord(message));
            const last = messages[messages.length - 1] as KafkaMessage;
            next.set(`${last.topic}:${last.partition}`, { topic: last.topic, partition: last.partition, offset: last.offset + 1n });
            // The readers' sockets write out (and in-process readers read) before the next burst.
            await new Promise((resolve) => setImmediate(resolve));
          },
          asItCame,
        );
        return readingOf(consumer, stream, pumping);
      });
    },

    async ends(topic: TopicName): Promise<PartitionEnd[]> {
      const offsets = await settled(() => listOffsets([topic], LATEST));
      return (offsets.get(physical(topic)) ?? []).map((end, partition) => ({ topic, partition, end: end.toString() }));
    },

    async ping() {
      try {
        await admin.metadata({ topics: [], forceUpdate: true });
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      await Promise.all([...running].map((r) => r.stop()));
      // Appends in flight finish first: one the broker is not answering is sent again up to the delivery timeout.
      await batcher.settled();
      await producer.close();
      await closeForcibly(offsetsReader);
      await admin.close();
    },
  };
}

/** What a replay and a fan-out keep of a message: all of it, for as long as they hold it is a moment. */
const asItCame = (message: KafkaMessage) => message;

/** Closes a consumer whose stream could not be had, and fails as that did. */
const closedAfter =
  (consumer: Consumer<string, Buffer, string, string>) =>
  async (error: unknown): Promise<never> => {
    await closeForcibly(consumer).catch(() => undefined);
    throw error;
  };

function splitSlot(slot: string): { topic: string; partition: number } {
  const cut = slot.lastIndexOf(':');
  return { topic: slot.slice(0, cut), partition: Number(slot.slice(cut + 1)) };
}

/** Retries what a broker refuses for a moment: a partition whose leader is still being elected. */
async function settled<T>(work: () => Promise<T>, attempts = 40): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
