import type { ConnectionPool, SQLQuery } from '@earshot/db';

/**
 * Runs `locking` in a transaction of its own and keeps that transaction open, its locks held, until `release` rolls
 * it back: another transaction caught mid-way (a tenant's deletion), as the statements waiting on it see it.
 */
export async function holdLocks(db: ConnectionPool, locking: SQLQuery): Promise<{ release: () => Promise<void> }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const transaction = db
    .tx(async (tx) => {
      await tx.query(locking);
      held();
      await released;
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  await Promise.race([holding, transaction]);
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}

class RolledBack extends Error {}
