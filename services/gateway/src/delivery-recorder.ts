import type { Delivery } from '@earshot/contracts';
import type { EventLog, OutgoingRecord } from '@earshot/log';
import { fallbackLogger } from '@earshot/telemetry';
import { deliveriesTopic } from '@earshot/topics';

export interface DeliveryRecorderOptions {
  /** How long records gather before they are appended together. */
  lingerMs?: number;
  /** Records held while the log is unreachable; beyond this the oldest are dropped, and counted aloud. */
  maxPending?: number;
  retryMs?: number;
  report?: (line: string) => void;
}

/**
 * Appends delivery records after the answer is sent, so the audit costs the
 * sender no latency, and gathers them for `lingerMs` first: the log has one
 * produce in flight at a time, and a produce of one request's delivery
 * record would make the next requests' events wait behind it. A record is
 * never dropped silently: a failed append is retried until the log takes it;
 * only beyond `maxPending` records (the log down for long under load) are the
 * oldest dropped, with the count reported; closing appends what is pending at
 * once and waits for it. A crash loses what was still pending, at most the
 * last `lingerMs` of deliveries (never an event).
 */
export class DeliveryRecorder {
  private pending: OutgoingRecord[] = [];
  private draining: Promise<void> | undefined;
  private lingering: NodeJS.Timeout | undefined;
  private dropped = 0;
  private failing = false;
  private closed = false;
  private readonly lingerMs: number;
  private readonly maxPending: number;
  private readonly retryMs: number;
  private readonly report: (line: string) => void;

  constructor(
    private readonly log: Pick<EventLog, 'append'>,
    options: DeliveryRecorderOptions = {},
  ) {
    this.lingerMs = options.lingerMs ?? 50;
    this.maxPending = options.maxPending ?? 100_000;
    this.retryMs = options.retryMs ?? 1_000;
    this.report = options.report ?? ((line) => fallbackLogger().warn(line));
  }

  record(deliveries: readonly Delivery[]): void {
    for (const delivery of deliveries) {
      // Encoded before it joins the pending batch: a record that cannot be is dropped alone, aloud, never failing the others' append.
      let record: OutgoingRecord;
      try {
        record = deliveriesTopic.record(delivery);
      } catch (error) {
        this.report(`delivery audit: a delivery record of tenant ${delivery.tenant} could not be encoded and is dropped: ${String(error)}`);
        continue;
      }
      this.pending.push(record);
    }
    const excess = this.pending.length - this.maxPending;
    if (excess > 0) {
      this.pending.splice(0, excess);
      this.dropped += excess;
      this.report(`delivery audit: the log has been unreachable too long; ${this.dropped} delivery records dropped so far`);
    }
    if (!this.draining) this.schedule();
  }

  private schedule(): void {
    if (this.closed) this.startDrain();
    else this.lingering ??= setTimeout(() => this.startDrain(), this.lingerMs);
  }

  private startDrain(): void {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    this.draining ??= this.drain();
  }

  /** Waits until every record so far is appended, or `deadlineMs` passes (then reports what is left). */
  async close(deadlineMs: number): Promise<void> {
    this.closed = true;
    if (this.pending.length > 0) this.startDrain();
    const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), deadlineMs).unref());
    while (this.draining) if ((await Promise.race([this.draining.then(() => 'done' as const), deadline])) === 'late') break;
    if (this.pending.length > 0) this.report(`delivery audit: ${this.pending.length} delivery records not appended at shutdown`);
  }

  /** Appends what is pending, retrying until the log takes it (or, once closing, until it fails once). */
  private async drain(): Promise<void> {
    try {
      for (;;) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.log.append(batch);
          if (this.failing) this.report('delivery audit: the log takes delivery records again');
          this.failing = false;
          return;
        } catch (error) {
          this.pending = [...batch, ...this.pending];
          if (!this.failing)
            this.report(`delivery audit: appending delivery records failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
          this.failing = true;
          if (this.closed) return;
          await new Promise((resolve) => setTimeout(resolve, this.retryMs));
        }
      }
    } finally {
      this.draining = undefined;
      // Records that came during the append gather again; closing, they go at once unless the log just failed.
      if (this.pending.length > 0 && !(this.closed && this.failing)) this.schedule();
    }
  }
}
