/**
 * Group commit: while a write is in flight, later calls queue up and go out
 * together in the next one. Idle, a call writes at once (no linger); busy,
 * many calls share one round trip (a produce request, a statement and its WAL
 * flush). Each call is answered with the results of its own items.
 */
export interface GroupCommitOptions {
  /** Writes in flight at once: one keeps order (an idempotent producer); a few keep one slow write from holding everyone. */
  parallel?: number;
  /** Items per write at most; a call is never split, so one larger call still goes out whole. */
  maxItems?: number;
}

interface Entry<T, R> {
  items: readonly T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T, R> {
  private queue: Entry<T, R>[] = [];
  private running = 0;
  private readonly idle: (() => void)[] = [];
  private readonly parallel: number;
  private readonly maxItems: number;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    options: GroupCommitOptions = {},
  ) {
    this.parallel = options.parallel ?? 1;
    this.maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  }

  add(items: readonly T[]): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      if (this.running < this.parallel) void this.drain();
    });
  }

  /** Resolves once everything added so far is written (or failed). */
  settled(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async drain(): Promise<void> {
    this.running++;
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        try {
          const results = await this.write(batch.flatMap((entry) => entry.items));
          let at = 0;
          for (const entry of batch) {
            entry.resolve(results.slice(at, at + entry.items.length));
            at += entry.items.length;
          }
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.running--;
      if (this.running === 0 && this.queue.length === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  private take(): Entry<T, R>[] {
    const batch: Entry<T, R>[] = [];
    let count = 0;
    for (let next = this.queue[0]; next; next = this.queue[0]) {
      if (batch.length > 0 && count + next.items.length > this.maxItems) break;
      batch.push(next);
      count += next.items.length;
      this.queue.shift();
    }
    return batch;
  }
}
