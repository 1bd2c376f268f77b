export * from './idempotency-store';

/** The idempotency key table, shared by every write endpoint through its scope. */
export const IDEMPOTENCY_MIGRATIONS = { module: 'idempotency', directory: new URL('../migrations/', import.meta.url) } as const;
