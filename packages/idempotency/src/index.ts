export * from './idempotency-store';

/** The idempotency key table, shared by every write endpoint through its scope. */
export const IDEMPOTENCY_MIGRATIONS = { module: 'idempotency', directory: new URL('../migrations/', import.meta.url) } as const;

/**
 * The key spaces of the writes and how long each replays an answer: ingest
 * for every way events come in (providers retry for up to 72 hours; a dead
 * letter replayed later must meet the keys the gateway saw), api for the
 * tenant's own writes.
 */
export const IDEMPOTENCY_SCOPES = {
  ingest: { scope: 'ingest', retentionMs: 72 * 3_600_000, answerLingerMs: 20 },
  api: { scope: 'api', retentionMs: 24 * 3_600_000, answerLingerMs: 0 },
} as const;
export type IdempotencyScope = keyof typeof IDEMPOTENCY_SCOPES;
