import createConnectionPool, { IsolationLevel, sql, type ConnectionPool, type Queryable, type SQLQuery } from '@databases/pg';
import { fallbackLogger, type Logger } from '@earshot/telemetry';
import { attachPlatformPool, PLATFORM_ROLE } from './platform-scope';
import { statementNamer } from './prepared-statements';

export { IsolationLevel, sql, type ConnectionPool, type Queryable, type SQLQuery };

export interface DatabaseOptions {
  url: string;
  /** Connections at most; each service sizes its own pool. */
  poolSize?: number;
  applicationName: string;
  /** Where a failed idle connection is reported. */
  logger?: Logger;
}

/** One code path for the embedded server and production PostgreSQL alike. */
export function openDatabase({ url, poolSize = 10, applicationName, logger = fallbackLogger() }: DatabaseOptions): ConnectionPool {
  const open = (name: string, size: number, options?: string) =>
    createConnectionPool({
      connectionString: url,
      poolSize: size,
      bigIntMode: 'number',
      applicationName: name,
      ...(options === undefined ? {} : { options }),
      // Stop a statement that hangs rather than a request that waits forever.
      queryTimeoutMilliseconds: 30_000,
      idleTimeoutMilliseconds: 30_000,
      onError: (error) => logger.error({ err: error, pool: name }, 'database connection failed'),
      onQueryStart: statementNamer(),
    });
  // A quarter of the pool: the platform's statements are few and shared (claims are grouped, key lookups cached).
  return attachPlatformPool(open(applicationName, poolSize), () =>
    open(`${applicationName}-platform`, Math.max(2, Math.ceil(poolSize / 4)), `-c role=${PLATFORM_ROLE}`),
  );
}

/** Answers whether the database takes a query, and how long it took. */
export async function databaseHealth(db: Queryable): Promise<{ connected: boolean; latencyMs: number }> {
  const started = performance.now();
  try {
    await db.query(sql`select 1`);
    return { connected: true, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { connected: false, latencyMs: Math.round(performance.now() - started) };
  }
}
