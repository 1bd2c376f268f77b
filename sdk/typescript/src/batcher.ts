import { EarshotError } from './errors.js';
import type { IngestEvent, IngestSummary } from './ingest.js';

export interface BatcherOptions {
  /** Events per request; a full batch goes out at once. Default 500. */
  maxEvents?: number;
  /** How long an event may wait for its batch to fill. Default 1,000 ms. */
  maxDelayMs?: number;
  /** Events buffered or in flight before `add` waits (back-pressure). Default 10,000. */
  maxPending?: number;
  /** X-Earshot-Provider of every request. Default `sdk`. */
  provider?: string;
  /** Each batch's answer. */
  onResult?: (summary: IngestSummary) => void;
  /** A batch that could not be sent (after the retries); without it, `flush` and `close` throw. */
  onError?: (error: unknown, events: IngestEvent[]) => void;
}

/** Events a batcher could not send, thrown by `flush` or `close` when no `onError` took them. */
export class BatchError extends EarshotError {
  override name = 'BatchError';
  constructor(
    readonly errors: unknown[],
    readonly events: IngestEvent[],
  ) {
    super(`${events.length} events could not be sent: ${errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}`);
  }
}

/** Running totals of what a batcher sent. */
export interface BatcherTotals {
  accepted: number;
  duplicates: number;
  deadLettered: number;
  failed: number;
}

/**
 * Buffers a high-volume sender's events and sends them in batches, by size
 * or by time, one request at a time. `add` waits while `maxPending` events
 * are buffered or in flight. Every event added is accepted, answered as a
 * duplicate or dead letter, or reported to `onError`: never dropped silently.
 */
export class IngestBatcher {
  readonly totals: BatcherTotals = { accepted: 0, duplicates: 0, deadLettered: 0, failed: 0 };
  private readonly maxEvents: number;
  private readonly maxDelayMs: number;
  private readonly maxPending: number;
  private buffer: IngestEvent[] = [];
  private inFlight = 0;
  private queue: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private waiting: (() => void)[] = [];
  private unreported: { errors: unknown[]; events: IngestEvent[] } = { errors: [], events: [] };

  constructor(
    private readonly send: (events: IngestEvent[], provider: string | undefined) => Promise<IngestSummary>,
    private readonly options: BatcherOptions = {},
  ) {
    this.maxEvents = Math.min(500, options.maxEvents ?? 500);
    this.maxDelayMs = options.maxDelayMs ?? 1_000;
    this.maxPending = Math.max(this.maxEvents, options.maxPending ?? 10_000);
    if (!(this.maxEvents >= 1)) throw new EarshotError(`maxEvents must be at least 1, not ${options.maxEvents}`);
  }

  /** Events buffered or in flight. */
  get pending(): number {
    return this.buffer.length + this.inFlight;
  }

  /** Adds an event; resolves once it is buffered, waiting while `maxPending` events are. */
  async add(event: IngestEvent): Promise<void> {
    if (this.closed) throw new EarshotError('the batcher is closed');
    while (this.pending >= this.maxPending) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.closed) throw new EarshotError('the batcher is closed');
    this.buffer.push(event);
    if (this.buffer.length >= this.maxEvents) this.cut();
    else this.timer ??= setTimeout(() => this.cut(), this.maxDelayMs);
  }

  /** Sends everything added so far and waits for the answers. */
  async flush(): Promise<void> {
    while (this.buffer.length > 0) this.cut();
    await this.queue;
    const { errors, events } = this.unreported;
    if (events.length === 0) return;
    this.unreported = { errors: [], events: [] };
    throw new BatchError(errors, events);
  }

  /** Flushes and stops: `add` refuses from now on. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private cut(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer.splice(0, this.maxEvents);
    if (batch.length === 0) return;
    if (this.buffer.length > 0) this.timer = setTimeout(() => this.cut(), this.maxDelayMs);
    this.inFlight += batch.length;
    this.queue = this.queue.then(() => this.deliver(batch));
  }

  private async deliver(batch: IngestEvent[]): Promise<void> {
    try {
      const summary = await this.send(batch, this.options.provider);
      this.totals.accepted += summary.accepted;
      this.totals.duplicates += summary.duplicates;
      this.totals.deadLettered += summary.deadLettered;
      this.options.onResult?.(summary);
    } catch (error) {
      this.totals.failed += batch.length;
      if (this.options.onError) this.options.onError(error, batch);
      else {
        this.unreported.errors.push(error);
        this.unreported.events.push(...batch);
      }
    } finally {
      this.inFlight -= batch.length;
      for (const wake of this.waiting.splice(0)) wake();
    }
  }
}
