import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Consumer, type IHeaders, type KafkaMessage, type PartitionMetadata } from 'kafkajs';
import {
  MAX_QUEUED_RECORDS,
  type EventLog,
  type LogPosition,
  type LogRecord,
  type OutgoingRecord,
  type PartitionEnd,
  type ReplayOptions,
  type ReplaySummary,
  type Running,
  type SubscribeOptions,
  type ConsumeOptions,
} from '../event-log';
import { ALL_TOPICS, PARTITIONS, type TopicName } from '../topics';
import { GroupCommit } from '@earshot/group-commit';
import { fallbackLogger, type Logger } from '@earshot/telemetry';
import { idempotentProducer } from './idempotent-producer';
import { replayUntilEnd } from './replay';
import { enforceRetention, retentionEntries, type TopicRetention } from './topic-retention';
import { keyPartitioner } from '../partitioner';
import { creationEntries, creationReplicas, refuseUnsafeLog, requiredDurability, SAFE_PRODUCER, type DurabilityRequirement } from './log-safety';
import { observeKafkajsLog } from './kafkajs-safety';
import { AssignedStarts } from './assigned-starts';

/**
 * How long an idle broker holds a fetch before answering it empty. A consumer's stop waits for the fetch in flight,
 * so kafkajs's 5 s default made every stop take up to 5 s; records still come back as soon as they arrive.
 */
const FETCH_WAIT_MS = 500;

export interface KafkaLogOptions {
  brokers: readonly string[];
  clientId: string;
  /** Prepended to every topic name, so tests (or tenants of a shared cluster) stay apart. */
  namespace?: string;
  /** Records per produce request at most. */
  maxBatch?: number;
  /** Records waiting behind the request in flight at most; MAX_QUEUED_RECORDS when not given. */
  maxQueued?: number;
  /** retention.ms per topic, set when a topic is made and corrected at every start where it differs; the broker's default elsewhere. */
  retention?: TopicRetention;
  /** The client library; EARSHOT_KAFKA_CLIENT when not given (see kafka-client.ts). */
  client?: KafkaClient;
  /** The min.insync.replicas every topic must have at least (EARSHOT_KAFKA_MIN_INSYNC_REPLICAS); by the cluster's size when not given (log-safety.ts). */
  minInsyncReplicas?: number;
  /**
   * How long an append is sent again while nothing tells whether the broker stored it (Kafka's delivery.timeout.ms);
   * two minutes when not given. The @platformatic/kafka adapter's; kafkajs reconnects for about as long.
   */
  deliveryTimeoutMs?: number;
  /** Where what the log does on its own is reported (a topic's retention corrected). */
  logger?: Logger;
}

export type KafkaClient = 'kafkajs' | 'platformatic';

const SEND_CHUNK = 500;

/** The EventLog on Apache Kafka through kafkajs: idempotent producer with acks=all, commits after the handler. */
export async function createKafkajsLog(options: KafkaLogOptions): Promise<EventLog> {
  const namespace = options.namespace ?? '';
  const physical = (topic: TopicName) => `${namespace}${topic}`;
  const logical = new Map<string, TopicName>(ALL_TOPICS.map((t) => [physical(t), t]));
  const toLogical = (name: string): TopicName => {
    const topic = logical.get(name);
    if (!topic) throw new Error(`record from unknown topic ${name}`);
    return topic;
  };

  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 100, retries: 8 },
  });
  const admin = kafka.admin();
  await admin.connect();
  const brokers = (await settled(() => admin.describeCluster())).brokers.length;
  const required = requiredDurability(brokers, options.minInsyncReplicas);
  await settled(() => ensureTopics(admin, physical, options.retention ?? {}, required, creationReplicas(required, brokers)));
  await settled(() => enforceRetention(admin, physical, options.retention ?? {}, options.logger ?? fallbackLogger()));
  try {
    refuseUnsafeLog(await settled(() => observeKafkajsLog(admin, ALL_TOPICS.map(physical))), SAFE_PRODUCER, required);
  } catch (error) {
    await admin.disconnect();
    throw error;
  }
  const partitionMetadata = await settled(() => topicMetadata(admin, physical));
  // A topic just created may not have elected its leaders yet; wait until every partition answers.
  await settled(() => Promise.all(ALL_TOPICS.map((t) => admin.fetchTopicOffsets(physical(t)))));

  const producer = await idempotentProducer({ clientId: options.clientId, brokers: options.brokers });
  const choosePartition = keyPartitioner();

  const produce = async (records: readonly OutgoingRecord[]): Promise<LogPosition[]> => {
    const placed = records.map((record) => {
      const partitions = partitionMetadata.get(record.topic)?.length ?? PARTITIONS[record.topic];
      const message = { key: record.key, value: record.value, headers: record.headers ?? {} };
      return { record, message: { ...message, partition: choosePartition(physical(record.topic), record.key, partitions) } };
    });
    const byTopic = new Map<TopicName, typeof placed>();
    for (const p of placed) {
      const items = byTopic.get(p.record.topic);
      if (items) items.push(p);
      else byTopic.set(p.record.topic, [p]);
    }
    const written = await producer.sendBatch({
      acks: SAFE_PRODUCER.acks,
      topicMessages: [...byTopic].map(([topic, items]) => ({ topic: physical(topic), messages: items.map((i) => i.message) })),
    });
    const nextOffset = new Map(written.map((w) => [`${toLogical(w.topicName)}:${w.partition}`, BigInt(w.baseOffset ?? '0')]));
    const positions = new Map<OutgoingRecord, LogPosition>();
    for (const [topic, items] of byTopic) {
      for (const { record, message } of items) {
        const slot = `${topic}:${message.partition}`;
        const offset = nextOffset.get(slot) ?? 0n;
        nextOffset.set(slot, offset + 1n);
        positions.set(record, { topic, partition: message.partition, offset: offset.toString() });
      }
    }
    return records.map((r) => positions.get(r) as LogPosition);
  };
  const batcher = new GroupCommit<OutgoingRecord, LogPosition>(
    async (records) => {
      // kafkajs groups a request's messages by partition by copying the group per message (quadratic):
      // requests of at most SEND_CHUNK records keep that small; a larger call goes as several, in order.
      const positions: LogPosition[] = [];
      for (let from = 0; from < records.length; from += SEND_CHUNK) positions.push(...(await produce(records.slice(from, from + SEND_CHUNK))));
      return positions;
    },
    { maxItems: options.maxBatch ?? 2_000, maxQueued: options.maxQueued ?? MAX_QUEUED_RECORDS },
  );

  /** A consumer in a group of its own (a replay's, a subscriber's), which commits nothing. */
  const briefConsumer = (name: string) => kafka.consumer({ groupId: `${namespace}${name}`, allowAutoTopicCreation: false, maxWaitTimeInMs: FETCH_WAIT_MS });

  const running = new Set<Running>();
  const track = (consumer: Consumer): Running => {
    const handle: Running = {
      stop: async () => {
        running.delete(handle);
        await consumer.disconnect();
      },
    };
    running.add(handle);
    return handle;
  };

  const toRecord = (topic: string, partition: number, message: KafkaMessage): LogRecord => ({
    topic: toLogical(topic),
    partition,
    offset: message.offset,
    key: message.key?.toString('utf8') ?? '',
    value: message.value ?? Buffer.alloc(0),
    headers: stringHeaders(message.headers),
    timestamp: Number(message.timestamp),
  });

  return {
    append: (records) => (records.length === 0 ? Promise.resolve([]) : batcher.add(records)),

    async consume({ group, topics, onBatch, start }: ConsumeOptions) {
      // A consumer that died stops holding its partitions after 10 s rather than kafkajs's 30 s default.
      const consumer = kafka.consumer({
        groupId: `${namespace}${group}`,
        allowAutoTopicCreation: false,
        sessionTimeout: 10_000,
        heartbeatInterval: 1_000,
        // Batches of thousands of records when behind (kafkajs's 1 MB is ~2,000 events): a consumer's fixed cost per batch (a transaction, its round trips) is spread thinner.
        maxBytesPerPartition: 4 * 1024 * 1024,
        maxBytes: 16 * 1024 * 1024,
        maxWaitTimeInMs: FETCH_WAIT_MS,
      });
      // Below the log's first offset, kafkajs's out-of-range reset (fromBeginning) starts at that first offset.
      const starts = new AssignedStarts(start, (topic, partition, offset) => consumer.seek({ topic: physical(topic), partition, offset: offset.toString() }));
      // Emitted after the join and before the first fetch of the assignment (kafkajs consumerGroup.joinAndSync).
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) =>
        starts.assigned(
          Object.entries(payload.memberAssignment).flatMap(([topic, partitions]) => partitions.map((partition) => ({ topic: toLogical(topic), partition }))),
        ),
      );
      await consumer.connect();
      await consumer.subscribe({ topics: topics.map(physical), fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async (payload) => {
          const { batch } = payload;
          if (!payload.isRunning() || payload.isStale() || batch.messages.length === 0) return;
          await starts.ready(toLogical(batch.topic), batch.partition);
          // Fetched before a seek (`start`'s or a ReadAgain's): dropped uncommitted, and read again from the seek.
          if (payload.isStale()) return;
          const records = batch.messages.map((m) => toRecord(batch.topic, batch.partition, m));
          const answer = await onBatch(records);
          if (answer) return starts.readAgain(toLogical(batch.topic), batch.partition, answer.readFrom);
          const last = batch.messages[batch.messages.length - 1];
          if (!last) return;
          payload.resolveOffset(last.offset);
          await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() }]);
          await payload.heartbeat();
        },
      });
      return track(consumer);
    },

    async replay(options: ReplayOptions): Promise<ReplaySummary> {
      return replayUntilEnd({ consumerOf: briefConsumer, admin, physical, toRecord, options });
    },

    async subscribe({ topics, from, onRecord }: SubscribeOptions) {
      const consumer = briefConsumer(`fanout-${randomUUID()}`);
      await consumer.connect();
      await consumer.subscribe({ topics: topics.map(physical), fromBeginning: false });
      const started = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ topic, partition, message }) => onRecord(toRecord(topic, partition, message)),
      });
      // Seeking explicitly pins "latest" to the moment of the call, not to a later first fetch.
      const starts =
        from === 'latest'
          ? await latestPositions(admin, topics, physical)
          : from.map((p) => ({ topic: physical(p.topic), partition: p.partition, offset: (BigInt(p.offset) + 1n).toString() }));
      for (const start of starts) consumer.seek(start);
      await started;
      return track(consumer);
    },

    async ends(topic: TopicName): Promise<PartitionEnd[]> {
      const offsets = await settled(() => admin.fetchTopicOffsets(physical(topic)));
      return offsets.map((o) => ({ topic, partition: o.partition, end: o.high })).sort((a, b) => a.partition - b.partition);
    },

    async ping() {
      try {
        await admin.describeCluster();
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      await Promise.all([...running].map((r) => r.stop()));
      await batcher.settled();
      await producer.disconnect();
      await admin.disconnect();
    },
  };
}

/**
 * Retries what a broker refuses for a moment (a partition whose leader is
 * being elected, metadata not yet everywhere): kafkajs's admin calls give up
 * on those at once.
 */
async function settled<T>(work: () => Promise<T>, attempts = 40): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const retriable = error instanceof Error && 'retriable' in error && error.retriable === true;
      if (!retriable || attempt >= attempts) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function ensureTopics(
  admin: Admin,
  physical: (t: TopicName) => string,
  retention: TopicRetention,
  required: DurabilityRequirement,
  replicas: number,
): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = ALL_TOPICS.filter((t) => !existing.has(physical(t)));
  if (missing.length === 0) return;
  await admin.createTopics({
    waitForLeaders: true,
    topics: missing.map((t) => ({
      topic: physical(t),
      numPartitions: PARTITIONS[t],
      replicationFactor: replicas,
      configEntries: [...creationEntries(required), ...retentionEntries(t, retention)],
    })),
  });
}

async function topicMetadata(admin: Admin, physical: (t: TopicName) => string): Promise<Map<TopicName, PartitionMetadata[]>> {
  const { topics } = await admin.fetchTopicMetadata({ topics: ALL_TOPICS.map(physical) });
  const byName = new Map(topics.map((t) => [t.name, t.partitions]));
  return new Map(ALL_TOPICS.map((t) => [t, byName.get(physical(t)) ?? []]));
}

async function latestPositions(admin: Admin, topics: readonly TopicName[], physical: (t: TopicName) => string) {
  const perTopic = await Promise.all(
    topics.map(async (t) => (await admin.fetchTopicOffsets(physical(t))).map((o) => ({ topic: physical(t), partition: o.partition, offset: o.high }))),
  );
  return perTopic.flat();
}

function stringHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.map(String).join(',') : value.toString();
  }
  return out;
}
