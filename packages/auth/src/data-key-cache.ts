import type { DataKey } from '@earshot/events';
import type { DataKeys } from './data-keys';

interface Entry {
  key: Promise<DataKey | undefined>;
  until: number;
}

export interface DataKeyCacheOptions {
  /** How long a key is used without asking the store again (default 5 s). */
  ttlMs?: number;
  /** Keys held at most; the oldest go first (default 100,000). */
  maxEntries?: number;
  now?: () => number;
}

/**
 * The sealing keys intake asks for, held for a few seconds: a call's events
 * arrive over minutes, and asking the store for its key with each one cost
 * two transactions per request. Requests that miss the same key at once
 * share one lookup. Keys never change while they exist, so the only stale
 * answer is a key erased meanwhile: an event sealed with it within the TTL
 * of its call's erasure is erased with the call.
 */
export class DataKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly keys: Pick<DataKeys, 'forTenant' | 'forCalls'>,
    options: DataKeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? (() => performance.now());
  }

  async forTenant(tenantId: string): Promise<DataKey> {
    const slot = `${tenantId}:`;
    const cached = this.fresh(slot);
    if (cached) return required(await cached, tenantId);
    const key = this.keys.forTenant(tenantId);
    this.hold(slot, key);
    return key;
  }

  async forCalls(tenantId: string, callIds: readonly string[]): Promise<Map<string, DataKey>> {
    const wanted = [...new Set(callIds)];
    const pending = new Map<string, Promise<DataKey | undefined>>();
    const missing: string[] = [];
    for (const callId of wanted) {
      const cached = this.fresh(`${tenantId}:${callId}`);
      if (cached) pending.set(callId, cached);
      else missing.push(callId);
    }
    if (missing.length > 0) {
      // The tenant's key wraps its calls' keys: taken from the cache, a new call costs the store only its shared statement.
      const looked = this.forTenant(tenantId).then((tenantKey) => this.keys.forCalls(tenantId, missing, tenantKey));
      for (const callId of missing) {
        const key = looked.then((found) => found.get(callId));
        this.hold(`${tenantId}:${callId}`, key);
        pending.set(callId, key);
      }
    }
    const found = new Map<string, DataKey>();
    for (const [callId, key] of pending) {
      const value = await key;
      if (value) found.set(callId, value);
    }
    return found;
  }

  private fresh(slot: string): Promise<DataKey | undefined> | undefined {
    const entry = this.entries.get(slot);
    if (entry && entry.until > this.now()) return entry.key;
    if (entry) this.entries.delete(slot);
    return undefined;
  }

  /** A failed lookup is forgotten at once, so the next request asks again. */
  private hold(slot: string, key: Promise<DataKey | undefined>): void {
    this.entries.delete(slot);
    this.entries.set(slot, { key, until: this.now() + this.ttlMs });
    key.catch(() => {
      if (this.entries.get(slot)?.key === key) this.entries.delete(slot);
    });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}

function required(key: DataKey | undefined, tenantId: string): DataKey {
  if (!key) throw new Error(`tenant ${tenantId}: no data key`);
  return key;
}
