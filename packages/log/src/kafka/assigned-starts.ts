import type { PartitionStart } from '../event-log';
import type { TopicName } from '../topics';

export interface AssignedPartition {
  topic: TopicName;
  partition: number;
}

/** Moves the client's next fetch of a partition to an offset. */
export type Seek = (topic: TopicName, partition: number, offset: bigint) => void | Promise<void>;

/**
 * A Kafka consumer's `start`: asked for every partition as soon as the group
 * assigns it, its answer sought at once (a partition already at its end has
 * no batch to wait for), and awaited before any batch of that partition is
 * handed on, so none fetched from the group's position slips through.
 */
export class AssignedStarts {
  private asked = new Map<string, Promise<void>>();

  constructor(
    private readonly start: PartitionStart | undefined,
    private readonly seek: Seek,
  ) {}

  /** A new assignment: every partition in it is asked again, even one this consumer held before the rebalance. */
  assigned(partitions: readonly AssignedPartition[]): void {
    this.asked = new Map();
    for (const { topic, partition } of partitions) this.ask(topic, partition);
  }

  /** Resolves once the partition's answer is known and sought; a failed one is asked again for the batch's next try. */
  async ready(topic: TopicName, partition: number): Promise<void> {
    const key = `${topic}:${partition}`;
    const asking = this.asked.get(key);
    if (asking === undefined) return;
    try {
      await asking;
      if (this.asked.get(key) === asking) this.asked.delete(key);
    } catch (error) {
      if (this.asked.get(key) === asking) this.ask(topic, partition);
      throw error;
    }
  }

  /** A batch handler's ReadAgain: sought like an answer of `start`, so the partition's next batch waits for it and drops what was fetched before. */
  readAgain(topic: TopicName, partition: number, offset: string): void {
    this.settle(
      topic,
      partition,
      Promise.resolve().then(() => this.seek(topic, partition, BigInt(offset))),
    );
  }

  private ask(topic: TopicName, partition: number): void {
    if (!this.start) return;
    this.settle(
      topic,
      partition,
      this.start(topic, partition).then((offset) => (offset === undefined ? undefined : this.seek(topic, partition, BigInt(offset)))),
    );
  }

  private settle(topic: TopicName, partition: number, seeking: Promise<void>): void {
    // Awaited by the partition's next batch; until then a failure must not count as unhandled.
    seeking.catch(() => undefined);
    this.asked.set(`${topic}:${partition}`, seeking);
  }
}
