import type { StoredEvent } from '@earshot/contracts';
import { EVENT_HEADERS, type KeyLookup } from '@earshot/events';
import type { LogRecord } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';

/** One tenant's data keys by id (DataKeys.lookup with the tenant): never another tenant's. */
type TenantKeys = (tenantId: string, keyIds: readonly string[]) => Promise<KeyLookup>;

const MAX_CACHED = 10_000;

/**
 * Opens the sealed fields of streamed events with the keys of the tenant the
 * stream serves, and only that tenant's. A call's events come in bursts, so
 * a key is kept for a few seconds rather than fetched per event; an erased
 * key stops opening live events within that time (new events of an erased
 * call are sealed with a new key anyway). An event whose key is gone was
 * erased (its call, or its tenant): it reads as null and is not sent.
 */
export class StreamKeys {
  private readonly cache = new Map<string, { key: Buffer | undefined; until: number }>();

  constructor(
    private readonly keys: TenantKeys,
    private readonly ttlMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The same lookup with a cache of its own: a resuming client's reader, which must not open what was erased before it connected. */
  fresh(): StreamKeys {
    return new StreamKeys(this.keys, this.ttlMs, this.now);
  }

  async read(record: LogRecord, tenantId: string): Promise<StoredEvent | null> {
    const keyId = record.headers[EVENT_HEADERS.sealedWith];
    if (keyId === undefined) return eventsTopic.read(record);
    const key = await this.key(tenantId, keyId);
    if (key === undefined) return null;
    return eventsTopic.read(record, (id) => (id === keyId ? key : undefined));
  }

  private async key(tenantId: string, keyId: string): Promise<Buffer | undefined> {
    const name = `${tenantId}/${keyId}`;
    const cached = this.cache.get(name);
    if (cached && cached.until > this.now()) return cached.key;
    const key = (await this.keys(tenantId, [keyId]))(keyId);
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(name, { key, until: this.now() + this.ttlMs });
    return key;
  }
}
