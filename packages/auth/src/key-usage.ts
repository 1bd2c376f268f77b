import { platformQuery, refusedValue, sql, type ConnectionPool } from '@earshot/db';

const MINUTE_MS = 60_000;
/** Buckets older than this are never read (24-hour usage) and are swept. */
const KEPT_MS = 25 * 3_600_000;
const SWEEP_EVERY_MS = 10 * MINUTE_MS;

export interface KeyUsageOptions {
  /** How often counts reach the database: usage and last use are exact to within this. */
  flushMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Counts each key's requests in memory and adds them to the database in one
 * statement per interval (per-minute buckets and the latest use), so a
 * request costs no database write. Counts a flush fails to write are kept
 * for the next one.
 */
export class KeyUsageMeter {
  private counts = new Map<string, number>();
  private lastUse = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private sweptAt = 0;

  constructor(
    private readonly db: ConnectionPool,
    private readonly options: KeyUsageOptions = {},
  ) {}

  record(keyId: string, at: Date): void {
    const time = at.getTime();
    const bucket = `${keyId}|${time - (time % MINUTE_MS)}`;
    this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + 1);
    if ((this.lastUse.get(keyId) ?? 0) < time) this.lastUse.set(keyId, time);
    this.schedule();
  }

  /** A timer only while there is something to write: an idle process holds none. */
  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.flushMs ?? 1_000).unref();
  }

  /** Writes what has been counted so far; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.write());
    return this.flushing;
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.counts.size === 0) return;
    const counts = this.counts;
    const lastUse = this.lastUse;
    this.counts = new Map();
    this.lastUse = new Map();
    try {
      await this.store(counts, lastUse);
    } catch (error) {
      for (const [bucket, requests] of counts) this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + requests);
      for (const [keyId, at] of lastUse) if ((this.lastUse.get(keyId) ?? 0) < at) this.lastUse.set(keyId, at);
      this.schedule();
      throw error;
    }
    const newest = Math.max(...lastUse.values());
    if (newest - this.sweptAt >= SWEEP_EVERY_MS) {
      this.sweptAt = newest;
      await this.db.query(sql`delete from api_key_usage where minute < ${new Date(newest - KEPT_MS)}`);
    }
  }

  /**
   * One statement for every key. A value PostgreSQL refuses (a key id that
   * is no uuid) would fail every key's count with it, at every flush: the
   * keys then go one by one, and the one refused alone is dropped, aloud.
   */
  private async store(counts: ReadonlyMap<string, number>, lastUse: ReadonlyMap<string, number>, alone = false): Promise<void> {
    const buckets = [...counts].map(([bucket, requests]) => {
      const [keyId = '', minute = '0'] = bucket.split('|');
      return { keyId, minute: new Date(Number(minute)), requests };
    });
    try {
      // Keys deleted since (with their tenant) are skipped rather than failing the whole flush. The keys are every tenant's: the platform role's path.
      await platformQuery(
        this.db,
        sql`
        with used as (
          update api_keys k set last_used_at = greatest(k.last_used_at, u.at)
            from unnest(${[...lastUse.keys()]}::uuid[], ${[...lastUse.values()].map((t) => new Date(t))}::timestamptz[]) as u(key_id, at)
           where k.id = u.key_id
        )
        insert into api_key_usage (key_id, minute, requests)
        select c.key_id, c.minute, c.requests
          from unnest(${buckets.map((b) => b.keyId)}::uuid[], ${buckets.map((b) => b.minute)}::timestamptz[], ${buckets.map((b) => b.requests)}::int[]) as c(key_id, minute, requests)
          join api_keys k on k.id = c.key_id
        on conflict (key_id, minute) do update set requests = api_key_usage.requests + excluded.requests`,
      );
    } catch (error) {
      if (!refusedValue(error)) throw error;
      if (alone) return this.options.onError?.(error);
      for (const [keyId, at] of lastUse) {
        const own = new Map([...counts].filter(([bucket]) => bucket.startsWith(`${keyId}|`)));
        await this.store(own, new Map([[keyId, at]]), true);
      }
    }
  }
}
