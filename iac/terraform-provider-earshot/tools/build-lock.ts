import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processAlive } from '@earshot/db';

/** The process holding the lock folder, once it has written itself in (a moment after the folder is made). */
function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Left by a process now gone; or without a holder written in after a minute (killed in between, or an older build's). */
function isStale(path: string): boolean {
  const holder = holderOf(path);
  if (holder !== undefined) return !processAlive(holder);
  try {
    return Date.now() - statSync(path).mtimeMs > 60_000;
  } catch {
    return false;
  }
}

/**
 * Waits for and takes `<dir>.lock`, a folder holding its holder's process id, so one build runs at a time per
 * machine. A build killed mid-way (a test run stopped with ^C) leaves the folder behind: the next taker finds
 * its holder gone and takes it over at once, rather than waiting out `waitMs` and asking someone to remove it.
 * Answers the release.
 */
export async function buildLock(dir: string, { waitMs = 30 * 60_000, pollMs = 1_000 } = {}): Promise<() => void> {
  const path = `${dir}.lock`;
  const deadline = Date.now() + waitMs;
  mkdirSync(resolve(dir, '..'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'pid'), String(process.pid));
      return () => rmSync(path, { recursive: true, force: true });
    } catch {
      if (isStale(path)) {
        // Renamed aside, not removed: of two takers finding it stale, only one moves it.
        const aside = `${path}.${process.pid}.stale`;
        try {
          renameSync(path, aside);
          rmSync(aside, { recursive: true, force: true });
        } catch {
          // Another taker moved it first.
        }
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${path} is still held after ${Math.round(waitMs / 1000)} s, by process ${holderOf(path) ?? 'unknown'}, which is running`);
      await new Promise((done) => setTimeout(done, pollMs));
    }
  }
}
