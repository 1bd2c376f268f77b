import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '@earshot/db';

/**
 * Claims the embedded data directory for this process, the way PostgreSQL's
 * postmaster.pid does: the embedded server is stopped by whoever owns it, so
 * a second `earshot serve` on the same directory (say, one that then fails
 * to bind its port) must not start, reuse and then stop the first one's
 * PostgreSQL. A lock left by a process that died is taken over.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'earshot.pid');
  for (;;) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return { release: () => rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
      throw new Error(
        `another earshot process (pid ${holder}) is using ${dataDir}; stop it first, or set EARSHOT_DATA_DIR to another folder to run a second one`,
      );
    }
    rmSync(file, { force: true });
  }
}
