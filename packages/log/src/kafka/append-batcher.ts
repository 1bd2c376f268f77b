/**
 * Group commit for appends: while one produce request is in flight, later
 * appends queue up and go out together in the next request. An idle log sends
 * at once (no linger); a busy one sends few, large requests.
 */
export interface Pending<T, R> {
  items: readonly T[];
  resolve: (results: R[]) => void;
  reject: (error: unknown) => void;
}

export class AppendBatcher<T, R> {
  private queue: Pending<T, R>[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly send: (items: T[]) => Promise<R[]>,
    private readonly maxItems: number,
  ) {}

  add(items: readonly T[]): Promise<R[]> {
    return new Promise<R[]>((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      this.flushing ??= this.drain();
    });
  }

  /** Resolves once everything queued so far has been sent (or failed). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        const items = batch.flatMap((p) => p.items);
        try {
          const results = await this.send(items);
          let at = 0;
          for (const pending of batch) {
            pending.resolve(results.slice(at, at + pending.items.length));
            at += pending.items.length;
          }
        } catch (error) {
          for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /** Takes whole appends up to maxItems (at least one, however large). */
  private take(): Pending<T, R>[] {
    const batch: Pending<T, R>[] = [];
    let count = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0];
      if (!next || (batch.length > 0 && count + next.items.length > this.maxItems)) break;
      batch.push(next);
      count += next.items.length;
      this.queue.shift();
    }
    return batch;
  }
}
