import { existsSync, mkdtempSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeCluster } from './placement';
import { startPostgres, stopPostgres } from './server';

const quiet = () => undefined;

describe('where the embedded cluster lives', () => {
  it('is made outside a private state folder as root (which stays 0700), and a disposable one is removed once its folder is gone', async () => {
    const first = mkdtempSync(join(tmpdir(), 'earshot-placement-'));
    const started = await startPostgres({ stateDir: first, portVariable: 'TEST_PORT', disposable: true }, quiet);
    stopPostgres(first);
    expect(started.fresh).toBe(true);
    expect(statSync(first).mode & 0o777).toBe(0o700);
    if (userInfo().uid !== 0) {
      // An ordinary user's server runs as that user, in place.
      expect(existsSync(join(first, 'postgres', 'PG_VERSION'))).toBe(true);
      removeCluster(first);
      rmSync(first, { recursive: true, force: true });
      return;
    }
    const home = dirname(readlinkSync(join(first, 'postgres')));
    expect(home).toMatch(/^\/var\/lib\/earshot\/clusters\//);
    rmSync(first, { recursive: true, force: true });
    expect(existsSync(home)).toBe(true);

    const second = mkdtempSync(join(tmpdir(), 'earshot-placement-'));
    try {
      await startPostgres({ stateDir: second, portVariable: 'TEST_PORT', disposable: true }, quiet);
      expect(existsSync(home)).toBe(false);
    } finally {
      stopPostgres(second);
      removeCluster(second);
      rmSync(second, { recursive: true, force: true });
    }
  }, 120_000);
});
