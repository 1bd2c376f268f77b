import type { TopicName } from './topics';

/**
 * The EventLog port: the append-only log every service shares. Adapters
 * (Kafka for scale-out, embedded for zero setup) pass one contract suite.
 */
export interface OutgoingRecord {
  topic: TopicName;
  /** Records with the same key keep their order (`tenant:call` for events). */
  key: string;
  value: Buffer;
  headers?: Record<string, string>;
}

export interface LogPosition {
  topic: TopicName;
  partition: number;
  /** Offset of the record; positions compare as bigints. */
  offset: string;
}

export interface LogRecord extends LogPosition {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
  /** Milliseconds since the epoch when the log stored the record. */
  timestamp: number;
}

export type RecordBatchHandler = (records: readonly LogRecord[]) => Promise<void>;

/**
 * What a consumer's batch handler may answer instead of nothing: read the
 * partition again from this offset (as `start` would), committing none of the
 * batch. For a consumer whose own stored position turns out to be behind the
 * batch (its store restored from a backup, or its last commits lost in a
 * crash), so it fills the hole while it runs.
 */
export interface ReadAgain {
  readFrom: string;
}

export type ConsumedBatchHandler = (records: readonly LogRecord[]) => Promise<void | ReadAgain>;

export interface ConsumeOptions {
  /** Consumers in one group share the partitions; each group sees every record. */
  group: string;
  topics: readonly TopicName[];
  /**
   * Called with records of one partition, in order; batches of different partitions may be in hand at once. The
   * positions are committed only after it resolves with nothing. A consumer whose connection to the log fails for good
   * starts again until stopped, from the committed positions (or `start`'s): a batch may be delivered again, never skipped.
   */
  onBatch: ConsumedBatchHandler;
  /**
   * Where a partition starts, for a consumer that stores its positions outside
   * the log (in the same transaction as what it writes). Asked on every
   * assignment of a partition to this consumer (at start and after each
   * rebalance), before the partition's first batch: an offset begins the
   * partition there (a seek, back or forward; below the first offset the log
   * still holds, at that first offset), undefined at the group's committed
   * position. A failed answer fails the partition's batch, which is tried
   * again, asking again.
   */
  start?: PartitionStart;
}

export type PartitionStart = (topic: TopicName, partition: number) => Promise<string | undefined>;

export interface ReplayOptions {
  topics: readonly TopicName[];
  /** Where to start: the beginning of the log, or the first record stored at or after a time. */
  from: 'earliest' | Date;
  onBatch: RecordBatchHandler;
}

export interface ReplaySummary {
  records: number;
}

export interface SubscribeOptions {
  topics: readonly TopicName[];
  /** `latest` for live readers; positions (the last record seen per partition) to resume after a reconnect. */
  from: 'latest' | readonly LogPosition[];
  onRecord: (record: LogRecord) => void;
}

export interface Running {
  stop(): Promise<void>;
}

export interface PartitionEnd {
  topic: TopicName;
  partition: number;
  /** Offset the next appended record will get. */
  end: string;
}

/**
 * Records an adapter holds waiting behind the append in flight at most. A
 * store that stops answering (a broker down, an append sent again for up to
 * its delivery timeout) makes appends wait; past this bound one fails at once
 * with QueueFull, stored nowhere, instead of every caller's records piling up
 * in memory. About 10 s of a gateway's peak on a fast machine.
 */
export const MAX_QUEUED_RECORDS = 50_000;

export interface EventLog {
  /** Resolves only once the log has durably stored every record, in order; fails at once with QueueFull past MAX_QUEUED_RECORDS waiting. */
  append(records: readonly OutgoingRecord[]): Promise<LogPosition[]>;
  consume(options: ConsumeOptions): Promise<Running>;
  /** Reads from a point up to the end as it was when the replay began, then resolves; fails rather than resolve short of it. */
  replay(options: ReplayOptions): Promise<ReplaySummary>;
  /**
   * A live fan-out: every subscriber sees every new record; nothing is committed. A connection that fails for good reads on
   * after the last record seen (kafkajs's own restart reads on from the end: records appended meanwhile are not seen).
   */
  subscribe(options: SubscribeOptions): Promise<Running>;
  ends(topic: TopicName): Promise<PartitionEnd[]>;
  /** Answers whether the log is reachable right now (for health checks). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export function comparePositions(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
