/** The embedded log's tables; applied only where the embedded log runs. */
export const EMBEDDED_LOG_MIGRATIONS = { module: 'log-embedded', directory: new URL('../../migrations/embedded/', import.meta.url) } as const;
