import { ApiKeyCache, type SecretBox } from '@earshot/auth';
import type { ConnectionPool } from '@earshot/db';
import { IDEMPOTENCY_SCOPES, IdempotencyStore, type IdempotencyScope } from '@earshot/idempotency';
import { RateLimiter } from '@earshot/rate-limit';
import type { Metrics } from '@earshot/telemetry';
import { runEvery } from '../periodic';

export interface AccessOptions {
  /** How long an authenticated key is kept before it is looked up again (a change anywhere empties the cache within `changeCheckMs` regardless). */
  keyCacheMs?: number;
  changeCheckMs?: number;
  usageFlushMs?: number;
  rateLimitSyncMs?: number;
  idempotencySweepMs?: number;
}

const DEFAULTS: Required<AccessOptions> = {
  keyCacheMs: 10_000,
  changeCheckMs: 500,
  usageFlushMs: 1_000,
  rateLimitSyncMs: 200,
  idempotencySweepMs: 10 * 60_000,
};

/** What a process needs to let a request in and keep its writes once: one of each, whatever services it runs. */
export interface Access {
  keys: ApiKeyCache;
  /** Opens and seals what is kept encrypted with the master key (webhook secrets). */
  secrets: SecretBox;
  limiter: RateLimiter;
  /** The store of a key space, made on first use and shared by every service of the process. */
  idempotency: (scope: IdempotencyScope) => IdempotencyStore;
}

export interface AccessDependencies {
  db: ConnectionPool;
  secrets: SecretBox;
  now: () => Date;
  report: (what: string) => (error: unknown) => void;
  metrics?: Metrics;
}

export function openAccess({ db, secrets, now, report, metrics }: AccessDependencies, options: AccessOptions = {}): { access: Access; stop(): Promise<void> } {
  const settings = { ...DEFAULTS, ...options };
  const keys = new ApiKeyCache(db, secrets, settings.keyCacheMs, {
    changeCheckMs: settings.changeCheckMs,
    usageFlushMs: settings.usageFlushMs,
    onError: report('key usage flush failed'),
    metrics,
  });
  const limiter = new RateLimiter(db, { now, syncIntervalMs: settings.rateLimitSyncMs, onError: report('rate-limit sync failed') });
  limiter.start();
  const stores = new Map<IdempotencyScope, IdempotencyStore>();
  const idempotency = (scope: IdempotencyScope): IdempotencyStore => {
    let store = stores.get(scope);
    if (!store) {
      store = new IdempotencyStore(db, { ...IDEMPOTENCY_SCOPES[scope], now });
      stores.set(scope, store);
    }
    return store;
  };
  const sweeper = runEvery(
    settings.idempotencySweepMs,
    async () => {
      for (const store of stores.values()) await store.sweep();
    },
    report('idempotency sweep failed'),
  );
  return {
    access: { keys, secrets, limiter, idempotency },
    stop: async () => {
      await sweeper.stop();
      await limiter.stop();
      for (const store of stores.values()) await store.settled();
      await keys.close();
    },
  };
}
