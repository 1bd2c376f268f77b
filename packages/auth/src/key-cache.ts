import { sql, type Queryable } from '@earshot/db';
import { fallbackLogger, type Metrics } from '@earshot/telemetry';
import { hashApiKey, parseApiKey } from './api-key';
import { credentialChangesHere } from './credential-changes';
import { KeyUsageMeter } from './key-usage';
import type { SecretBox } from './secret-box';
import { lookupApiKey, type AuthenticatedKey, type KeyLookup } from './tenants';

export interface ApiKeyCacheOptions {
  maxEntries?: number;
  /**
   * How often the change counter is read while keys are kept: a revocation,
   * rotation, suspension or new webhook secret in any process empties this
   * cache within this long (plus one query).
   */
  changeCheckMs?: number;
  /** How often counted usage is written. */
  usageFlushMs?: number;
  onError?: (error: unknown) => void;
  /** Counts the keys answered from the cache and those looked up. */
  metrics?: Metrics;
}

interface Kept {
  key: AuthenticatedKey;
  until: number;
  /** The change counter known when the lookup began: a later change makes the entry stale. */
  version: bigint;
}

/**
 * Keeps authenticated keys for a few seconds, so a busy sender costs one
 * lookup per interval rather than one per request. Only keys that were found
 * are kept: a malformed or unknown key always goes to the checksum and the
 * database. Every process reads the shared change counter at most every
 * `changeCheckMs` while it serves kept keys, so a revoked key stops working
 * everywhere within that; a rotated secret is also picked up at once
 * through `refresh` on a signature mismatch. It also counts each key's use
 * (batched writes) for last use and 24-hour usage.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Kept>();
  private readonly usage: KeyUsageMeter;
  private readonly changeCheckMs: number;
  private readonly maxEntries: number;
  private version = -1n;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<bigint> | undefined;
  private changesSeen = credentialChangesHere();
  private readonly metrics: Metrics | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
    private readonly ttlMs: number,
    options: ApiKeyCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.changeCheckMs = options.changeCheckMs ?? 500;
    this.metrics = options.metrics;
    const onError = options.onError ?? ((error: unknown) => fallbackLogger().error({ err: error }, 'key usage flush failed; kept for the next one'));
    this.usage = new KeyUsageMeter(db, { flushMs: options.usageFlushMs, onError });
  }

  async authenticate(presented: string, now: Date): Promise<AuthenticatedKey | undefined> {
    const found = await this.identify(presented, now);
    return found.ok ? found.key : undefined;
  }

  /** The caller of a key, or why it names none (malformed, unknown, revoked, expired, rotated, suspended). */
  async identify(presented: string, now: Date): Promise<KeyLookup> {
    const parsed = parseApiKey(presented);
    if (!parsed) return { ok: false, reason: 'malformed' };
    // The cache is keyed by the hash the parse made: one hash of the key per request, not two.
    const cached = this.entries.get(parsed.hash.toString('base64'));
    if (cached && cached.until > now.getTime() && cached.version === (await this.currentVersion())) {
      const { expiresAt } = cached.key;
      // Past its time the key is looked up again, which says whether it expired or was rotated out.
      if (expiresAt === null || expiresAt > now) {
        this.metrics?.keyCacheLookups.inc({ result: 'hit' });
        return { ok: true, key: cached.key };
      }
    }
    this.metrics?.keyCacheLookups.inc({ result: 'miss' });
    return this.lookup(presented, now);
  }

  /** Looks the key up again, bypassing what is kept. */
  async refresh(presented: string, now: Date): Promise<AuthenticatedKey | undefined> {
    const found = await this.lookup(presented, now);
    return found.ok ? found.key : undefined;
  }

  /** Counts one request of the key, toward its last use and 24-hour usage. */
  recordUse(key: AuthenticatedKey, at: Date): void {
    this.usage.record(key.keyId, at);
  }

  /** Writes the usage counted so far (tests, and shutdown). */
  flushUsage(): Promise<void> {
    return this.usage.flush();
  }

  async close(): Promise<void> {
    await this.usage.close();
  }

  private async lookup(presented: string, now: Date): Promise<KeyLookup> {
    const id = cacheKey(presented);
    const version = await this.currentVersion();
    const found = await lookupApiKey(this.db, this.box, presented, now);
    this.entries.delete(id);
    if (!found.ok) return found;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value ?? '');
    this.entries.set(id, { key: found.key, until: now.getTime() + this.ttlMs, version });
    return found;
  }

  /**
   * The change counter, read again when the last reading is older than
   * `changeCheckMs` or this process has changed credentials since;
   * concurrent requests share one read.
   */
  private currentVersion(): Promise<bigint> {
    const changesHere = credentialChangesHere();
    const changedHere = changesHere !== this.changesSeen;
    if (!changedHere && performance.now() - this.checkedAt < this.changeCheckMs) return Promise.resolve(this.version);
    // A read begun before a change made here may have missed it: only a read begun after it will do.
    if (this.checking && !changedHere) return this.checking;
    this.changesSeen = changesHere;
    const checking: Promise<bigint> = this.readVersion().finally(() => {
      if (this.checking === checking) this.checking = undefined;
    });
    this.checking = checking;
    return checking;
  }

  private async readVersion(): Promise<bigint> {
    const started = performance.now();
    const [row] = (await this.db.query(sql`select version::text as version from credential_changes`)) as { version: string }[];
    const version = BigInt(row?.version ?? '0');
    // A reading begun before the latest one taken says nothing newer.
    if (started < this.checkedAt) return this.version;
    if (version !== this.version) this.entries.clear();
    this.version = version;
    this.checkedAt = started;
    return version;
  }
}

function cacheKey(presented: string): string {
  return hashApiKey(presented).toString('base64');
}
