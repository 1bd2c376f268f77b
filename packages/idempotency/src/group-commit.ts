/**
 * Group commit: while one statement is in flight, later calls queue up and
 * go out together in the next one. An idle store writes at once; a busy one
 * writes few statements of many rows, which is what lets concurrent
 * requests share a round trip and a WAL flush.
 */
export class GroupCommit<T, R> {
  private queue: { items: readonly T[]; resolve: (results: R[]) => void; reject: (error: unknown) => void }[] = [];
  private running = 0;
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    /** Statements in flight at once: a few, so one slow statement does not hold every request. */
    private readonly parallel: number,
  ) {}

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
        const batch = this.queue.splice(0);
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
}
