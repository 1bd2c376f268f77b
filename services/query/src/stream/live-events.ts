import { EVENT_HEADERS } from '@earshot/events';
import type { EventLog, LogRecord, Running } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';
import type { StoredEvent } from '@earshot/contracts';
import type { StreamKeys } from './stream-keys';
import type { StreamPosition } from './stream-position';

/** One event as every subscriber of its tenant receives it: decoded and serialised once. */
export interface LiveEvent {
  partition: number;
  offset: bigint;
  event: StoredEvent;
  json: string;
}

export interface LiveSubscriber {
  tenantId: string;
  receive(event: LiveEvent): void;
}

/**
 * The one subscription to the events topic per process, fanned out in
 * memory to the stream's clients by tenant. Delivery never waits on a
 * client: each subscriber buffers and drops itself, so a slow reader cannot
 * hold up the log, the other clients, or ingest.
 */
export class LiveEvents {
  private readonly subscribers = new Map<string, Set<LiveSubscriber>>();
  private readonly passed = new Map<number, bigint>();
  private running: Promise<Running> | undefined;
  private delivered: Promise<void> = Promise.resolve();

  constructor(
    private readonly log: EventLog,
    readonly keys: StreamKeys,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts the shared subscription on first use: a process that never streams never subscribes. */
  start(): Promise<Running> {
    // A failed start is not kept: the next client tries again.
    this.running ??= this.subscribe().catch((error: unknown) => {
      this.running = undefined;
      throw error;
    });
    return this.running;
  }

  /** The next offset of each partition: a position stands at `end - 1` until records pass it. */
  async ends(): Promise<Map<number, bigint>> {
    return new Map((await this.log.ends(eventsTopic.name)).map((e) => [e.partition, BigInt(e.end)]));
  }

  private async subscribe(): Promise<Running> {
    for (const [partition, end] of await this.ends()) if (!this.passed.has(partition)) this.passed.set(partition, end - 1n);
    return this.log.subscribe({ topics: [eventsTopic.name], from: 'latest', onRecord: (record) => this.dispatch(record) });
  }

  add(subscriber: LiveSubscriber): void {
    const group = this.subscribers.get(subscriber.tenantId) ?? new Set();
    group.add(subscriber);
    this.subscribers.set(subscriber.tenantId, group);
  }

  remove(subscriber: LiveSubscriber): void {
    const group = this.subscribers.get(subscriber.tenantId);
    group?.delete(subscriber);
    if (group?.size === 0) this.subscribers.delete(subscriber.tenantId);
  }

  /** Where the shared stream is: a live client has passed at least this. */
  position(): StreamPosition {
    return this.passed;
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running) await (await running).stop();
  }

  private dispatch(record: LogRecord): void {
    // Opening sealed fields may wait on the key store: records still go out one at a time, in the log's order.
    this.delivered = this.delivered.then(() => this.deliver(record)).catch(this.onError);
  }

  private async deliver(record: LogRecord): Promise<void> {
    const offset = BigInt(record.offset);
    // The log delivers at least once: a record this stream has passed is not sent again.
    if (offset <= (this.passed.get(record.partition) ?? -1n)) return;
    const tenantId = record.headers[EVENT_HEADERS.tenant] ?? '';
    const group = this.subscribers.get(tenantId);
    if (!group || group.size === 0) return void this.passed.set(record.partition, offset);
    let event: StoredEvent | null;
    try {
      event = await this.keys.read(record, tenantId);
    } catch (error) {
      this.passed.set(record.partition, offset);
      return this.onError(error);
    }
    this.passed.set(record.partition, offset);
    if (event === null) return;
    const live: LiveEvent = { partition: record.partition, offset, event, json: JSON.stringify(event) };
    for (const subscriber of group) subscriber.receive(live);
  }
}
