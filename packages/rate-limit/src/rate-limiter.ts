import { refusedValue, sql, type ConnectionPool } from '@earshot/db';

export const WINDOW_MS = 60_000;

export interface RateLimitCheck {
  /** What is counted, e.g. `tenant:<id>:ingest-requests`. */
  bucket: string;
  /** Per one-minute window. */
  limit: number;
  /** How much this request uses: 1 for a request, the number of events for an event limit. */
  cost: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The tightest of the checks: the one with the least left. */
  limit: number;
  remaining: number;
  /** Seconds until the window, and so the count, resets. */
  resetSeconds: number;
}

interface Bucket {
  window: number;
  /** The first use of a bucket in a window reads the shared total, so a process new to it does not start from zero. */
  loaded: Promise<void> | undefined;
  /** The total across processes, as of the last sync. */
  shared: number;
  /** Counted here since the last sync. */
  pending: number;
}

interface Sent {
  name: string;
  bucket: Bucket;
  added: number;
}

export interface RateLimiterOptions {
  now: () => Date;
  /** How often counts are exchanged with Postgres; the overshoot bound scales with it. */
  syncIntervalMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Fixed one-minute windows counted across processes through Postgres, with
 * no server beyond it. Each process decides locally from the last known total
 * plus its own count, and every `syncIntervalMs` adds its count to the shared
 * row and reads the total back. Overshoot bound: in a window, the admitted
 * total exceeds the limit by at most what the other processes admitted
 * during their last unsynced interval (with P processes at r admits/s each,
 * (P - 1) * r * syncInterval), never more than (P - 1) * limit.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly syncIntervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private syncs = 0;

  constructor(
    private readonly db: ConnectionPool,
    private readonly options: RateLimiterOptions,
  ) {
    this.syncIntervalMs = options.syncIntervalMs ?? 200;
  }

  /** Counts the request against every check, or against none if any is exhausted. */
  async take(checks: readonly RateLimitCheck[]): Promise<RateLimitDecision> {
    const nowMs = this.options.now().getTime();
    const window = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
    const resetSeconds = Math.max(1, Math.ceil((window + WINDOW_MS - nowMs) / 1000));
    const states = checks.map((check) => ({ check, bucket: this.bucket(check.bucket, window) }));
    for (const { bucket } of states) if (bucket.loaded) await bucket.loaded;
    const exhausted = states.find(({ check, bucket }) => bucket.shared + bucket.pending + check.cost > check.limit);
    if (exhausted) {
      const { check, bucket } = exhausted;
      return { allowed: false, limit: check.limit, remaining: Math.max(0, check.limit - bucket.shared - bucket.pending), resetSeconds };
    }
    for (const { check, bucket } of states) bucket.pending += check.cost;
    const tightest = states.reduce<{ limit: number; remaining: number }>(
      (best, { check, bucket }) => {
        const remaining = Math.max(0, check.limit - bucket.shared - bucket.pending);
        return remaining < best.remaining ? { limit: check.limit, remaining } : best;
      },
      { limit: Number.POSITIVE_INFINITY, remaining: Number.POSITIVE_INFINITY },
    );
    return { allowed: true, limit: tightest.limit, remaining: tightest.remaining, resetSeconds };
  }

  start(): void {
    this.timer ??= setInterval(() => void this.sync(), this.syncIntervalMs);
    this.timer.unref();
  }

  /** Stops syncing after pushing what was counted here, so other processes still see it. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sync();
  }

  /** Adds the local counts to the shared rows and reads the totals back, in one statement. */
  sync(): Promise<void> {
    this.syncing ??= this.exchange().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async exchange(): Promise<void> {
    const current = Math.floor(this.options.now().getTime() / WINDOW_MS) * WINDOW_MS;
    for (const [name, bucket] of this.buckets) if (bucket.window < current) this.buckets.delete(name);
    const sent = [...this.buckets].map(([name, bucket]) => ({ name, bucket, added: bucket.pending }));
    if (sent.length === 0) return;
    try {
      await this.exchangeCounts(sent);
      if (++this.syncs % 300 === 0) await this.db.query(sql`delete from rate_limit_windows where window_start < ${new Date(current - WINDOW_MS)}`);
    } catch (error) {
      // The counts stay pending and go with the next sync.
      this.options.onError?.(error);
    }
  }

  /**
   * One statement for every bucket. One PostgreSQL refuses (a count beyond
   * an int) would fail the others' sync with it, for ever: the buckets then
   * go one by one, and the one refused alone is dropped, aloud.
   */
  private async exchangeCounts(sent: readonly Sent[], alone = false): Promise<void> {
    try {
      const rows = (await this.db.query(sql`
        insert into rate_limit_windows as w (bucket, window_start, count)
        select * from unnest(${sent.map((s) => s.name)}::text[], ${sent.map((s) => new Date(s.bucket.window))}::timestamptz[], ${sent.map((s) => s.added)}::int[])
        on conflict (bucket, window_start) do update set count = w.count + excluded.count
        returning bucket, count`)) as { bucket: string; count: number }[];
      const totals = new Map(rows.map((r) => [r.bucket, r.count]));
      for (const { name, bucket, added } of sent) {
        bucket.pending -= added;
        bucket.shared = totals.get(name) ?? bucket.shared + added;
      }
    } catch (error) {
      if (!refusedValue(error)) throw error;
      if (!alone) {
        for (const one of sent) await this.exchangeCounts([one], true);
        return;
      }
      for (const { name } of sent) this.buckets.delete(name);
      this.options.onError?.(error);
    }
  }

  private bucket(name: string, window: number): Bucket {
    const existing = this.buckets.get(name);
    if (existing && existing.window === window) return existing;
    const fresh: Bucket = { window, shared: 0, pending: 0, loaded: undefined };
    fresh.loaded = this.load(name, fresh).finally(() => {
      fresh.loaded = undefined;
    });
    this.buckets.set(name, fresh);
    return fresh;
  }

  private async load(name: string, bucket: Bucket): Promise<void> {
    try {
      const [row] = (await this.db.query(sql`select count from rate_limit_windows where bucket = ${name} and window_start = ${new Date(bucket.window)}`)) as {
        count: number;
      }[];
      bucket.shared = Math.max(bucket.shared, row?.count ?? 0);
    } catch (error) {
      // Decide from the local count; the next sync brings the shared total.
      this.options.onError?.(error);
    }
  }
}
