import { sqlState } from './sql-state';

/** PostgreSQL's deadlock_detected: it undid one transaction of a cycle of lock waits, whole. */
export function deadlocked(error: unknown): boolean {
  return sqlState(error) === '40P01';
}

/**
 * Runs a transaction again, up to `tries` times in all, when PostgreSQL undid
 * it to break a deadlock: nothing of it was kept, and the other side of the
 * cycle goes on once it is undone, so running it again is the remedy
 * PostgreSQL's manual gives. For a transaction whose rows any process may
 * write in an order of its own.
 */
export async function retryingDeadlocks<T>(run: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!deadlocked(error) || attempt >= tries) throw error;
    }
  }
}
