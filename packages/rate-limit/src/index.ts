export * from './rate-limiter';

/** The shared window counters every rate-limited route uses. */
export const RATE_LIMIT_MIGRATIONS = { module: 'rate-limit', directory: new URL('../migrations/', import.meta.url) } as const;
