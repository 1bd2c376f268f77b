import { sql, type ConnectionPool } from '@databases/pg';

/**
 * Runs `work` unless another process is running work of the same name, and
 * answers undefined then: a session advisory lock, held on one pooled
 * connection while the work runs. Postgres releases it when that connection
 * ends, so when the process holding it dies another takes over on its next
 * round. Background rounds (alert evaluation, closing billing periods) can so
 * run in several replicas for availability and still run once at a time.
 */
export async function exclusively<T>(db: ConnectionPool, name: string, work: () => Promise<T>): Promise<T | undefined> {
  return db.task(async (connection) => {
    const [lock] = (await connection.query(sql`select pg_try_advisory_lock(hashtext(${name})) as held`)) as { held: boolean }[];
    if (!lock?.held) return undefined;
    try {
      return await work();
    } finally {
      await connection.query(sql`select pg_advisory_unlock(hashtext(${name}))`);
    }
  });
}
