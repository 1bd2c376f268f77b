/**
 * Group commit: while a write is in flight, later calls queue up and go out
 * together in the next one. Idle, a call writes at once (no linger); busy,
 * many calls share one round trip (a produce request, a statement and its WAL
 * flush). Each call is answered with the results of its own items. A shared
 * write that fails for a reason one call may have brought (`isolate`) is
 * written again call by call, so only the call at fault gets the error.
 */
export interface GroupCommitOptions {
  /** Writes in flight at once: one keeps order (an idempotent producer); a few keep one slow write from holding everyone. */
  parallel?: number;
  /** Items per write at most; a call is never split, so one larger call still goes out whole. */
  maxItems?: number;
  /**
   * Whether a failed shared write may have failed for one call's items (a
   * value the store refuses) rather than for all (the store unreachable):
   * then each call is written again alone. Unset, a failure fails them all.
   */
  isolate?: (error: unknown) => boolean;
  /**
   * Items waiting behind the writes in flight at most: a call that would pass
   * it fails at once with QueueFull, written nowhere. Unbounded when unset.
   * A store that stops answering (a broker down while a write is sent again)
   * then sheds load instead of holding every call's items in memory.
   */
  maxQueued?: number;
}

/** A call refused because too many items already wait: none of its items was written. */
export class QueueFull extends Error {
  constructor(queued: number) {
    super(`${queued} items already wait for the write in flight; nothing of this call was written`);
    this.name = 'QueueFull';
  }
}

interface Entry<T, R> {
  items: readonly T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T, R> {
  private queue: Entry<T, R>[] = [];
  private queued = 0;
  private running = 0;
  private readonly idle: (() => void)[] = [];
  private readonly parallel: number;
  private readonly maxItems: number;
  private readonly maxQueued: number;
  private readonly isolate: (error: unknown) => boolean;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    options: GroupCommitOptions = {},
  ) {
    this.parallel = options.parallel ?? 1;
    this.maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
    this.maxQueued = options.maxQueued ?? Number.POSITIVE_INFINITY;
    this.isolate = options.isolate ?? (() => false);
  }

  add(items: readonly T[]): Promise<R[]> {
    const [answer] = this.addEach([items]);
    return answer as Promise<R[]>;
  }

  /** Several calls at once, answered (and failed) each on its own, and queued together so they can share one write. */
  addEach(calls: readonly (readonly T[])[]): Promise<R[]>[] {
    const answers = calls.map((items) => {
      // An empty queue takes any call, so one larger than the bound is still written (alone).
      if (this.queued > 0 && this.queued + items.length > this.maxQueued) return Promise.reject(new QueueFull(this.queued));
      this.queued += items.length;
      return new Promise<R[]>((resolve, reject) => this.queue.push({ items, resolve, reject }));
    });
    if (this.running < this.parallel && this.queue.length > 0) void this.drain();
    return answers;
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
          if (batch.length > 1 && this.isolate(error)) await this.writeAlone(batch);
          else for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.running--;
      if (this.running === 0 && this.queue.length === 0) for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** In order, so a write that keeps order (one in flight) still does. */
  private async writeAlone(batch: readonly Entry<T, R>[]): Promise<void> {
    for (const entry of batch) {
      try {
        entry.resolve(await this.write([...entry.items]));
      } catch (error) {
        entry.reject(error);
      }
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
      this.queued -= next.items.length;
    }
    return batch;
  }
}
