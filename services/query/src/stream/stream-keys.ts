import type { StoredEvent } from '@earshot/contracts';
import { erasableCall, erasedInTheClear, EVENT_HEADERS, type ErasableCall, type ErasedAt, type ErasedCalls, type KeyLookup } from '@earshot/events';
import type { LogRecord } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';

/** One tenant's data keys by id (DataKeys.lookup with the tenant): never another tenant's. */
type TenantKeys = (tenantId: string, keyIds: readonly string[]) => Promise<KeyLookup>;

const MAX_CACHED = 10_000;

const nameOf = (call: ErasableCall) => `${call.tenantId}/${call.callId}`;

interface Cached<T> {
  value: T;
  until: number;
}

/**
 * Opens the sealed fields of streamed events with the keys of the tenant the
 * stream serves, and only that tenant's. A call's events come in bursts, so
 * a key is kept for a few seconds rather than fetched per event; an erased
 * key stops opening live events within that time (new events of an erased
 * call are sealed with a new key anyway). An event whose key is gone was
 * erased (its call, or its tenant): it reads as null and is not sent.
 *
 * An event appended in the clear reads as null too when its call was erased
 * after the log stored it (erasedInTheClear, the projector's rule). When its
 * call was erased is kept as long as a key, by the same reasoning: asking
 * per event would be a query per streamed event with sealing off, while a
 * live event is stored moments before it is read, so only a call erased in
 * those moments could be missed, as its key would be. Sealed events never ask.
 */
export class StreamKeys {
  private readonly cache = new Map<string, Cached<Buffer | undefined>>();
  private readonly erasures = new Map<string, Cached<number | undefined>>();

  constructor(
    private readonly keys: TenantKeys,
    private readonly erasedCalls: ErasedCalls,
    private readonly ttlMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The same lookups with caches of their own: a resuming client's reader, which must not open what was erased before it connected. */
  fresh(): StreamKeys {
    return new StreamKeys(this.keys, this.erasedCalls, this.ttlMs, this.now);
  }

  async read(record: LogRecord, tenantId: string): Promise<StoredEvent | null> {
    const keyId = record.headers[EVENT_HEADERS.sealedWith];
    if (keyId === undefined) return this.readInTheClear(record);
    const key = await this.key(tenantId, keyId);
    if (key === undefined) return null;
    return eventsTopic.read(record, (id) => (id === keyId ? key : undefined));
  }

  private async readInTheClear(record: LogRecord): Promise<StoredEvent | null> {
    const event = eventsTopic.read(record);
    const erased = await erasedInTheClear(
      [record],
      (r) => erasableCall(r, event),
      (calls) => this.erasedAt(calls),
    );
    return erased(record) ? null : event;
  }

  private async key(tenantId: string, keyId: string): Promise<Buffer | undefined> {
    const name = `${tenantId}/${keyId}`;
    const cached = this.cache.get(name);
    if (cached && cached.until > this.now()) return cached.value;
    const key = (await this.keys(tenantId, [keyId]))(keyId);
    this.keep(this.cache, name, key);
    return key;
  }

  /** When the calls were erased, from the cache where it is fresh, else in one question for the rest. */
  private async erasedAt(calls: readonly ErasableCall[]): Promise<ErasedAt> {
    const known = new Map<string, number | undefined>();
    const stale: ErasableCall[] = [];
    for (const call of calls) {
      const cached = this.erasures.get(nameOf(call));
      if (cached && cached.until > this.now()) known.set(nameOf(call), cached.value);
      else stale.push(call);
    }
    if (stale.length > 0) {
      const asked = await this.erasedCalls(stale);
      for (const call of stale) {
        const at = asked(call.tenantId, call.callId);
        known.set(nameOf(call), at);
        this.keep(this.erasures, nameOf(call), at);
      }
    }
    return (tenantId, callId) => known.get(nameOf({ tenantId, callId }));
  }

  private keep<T>(cache: Map<string, Cached<T>>, name: string, value: T): void {
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(name, { value, until: this.now() + this.ttlMs });
  }
}
