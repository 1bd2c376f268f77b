import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLock } from '../../iac/terraform-provider-earshot/tools/build-lock';

describe('the OpenTofu build lock', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'earshot-build-lock-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let n = 0;
  const dir = () => join(scratch, `v${n++}`);

  /** A process id that was just in use and is no longer. */
  const gonePid = () => spawnSync(process.execPath, ['-e', '0']).pid ?? 0;

  it('is taken at once when free, names its holder, and is free again once released', async () => {
    const built = dir();
    const release = await buildLock(built);
    expect(readFileSync(`${built}.lock/pid`, 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(`${built}.lock`)).toBe(false);
  });

  it('is taken over at once from a build killed mid-way, whose process is gone', async () => {
    const built = dir();
    mkdirSync(`${built}.lock`);
    writeFileSync(`${built}.lock/pid`, String(gonePid()));
    const release = await buildLock(built, { waitMs: 0 });
    expect(readFileSync(`${built}.lock/pid`, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('is taken over from a folder left without a holder for over a minute (an older build’s lock)', async () => {
    const built = dir();
    mkdirSync(`${built}.lock`);
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(`${built}.lock`, old, old);
    const release = await buildLock(built, { waitMs: 0 });
    release();
  });

  it('waits while its holder runs, and says who holds it when the wait runs out', async () => {
    const built = dir();
    mkdirSync(`${built}.lock`);
    writeFileSync(`${built}.lock/pid`, String(process.ppid));
    await expect(buildLock(built, { waitMs: 300, pollMs: 50 })).rejects.toThrow(`still held after 0 s, by process ${process.ppid}, which is running`);
    expect(readFileSync(`${built}.lock/pid`, 'utf8')).toBe(String(process.ppid));
  });

  it('goes to one of two takers at a time', async () => {
    const built = dir();
    const first = await buildLock(built);
    let second: (() => void) | undefined;
    const waiting = buildLock(built, { pollMs: 20 }).then((release) => (second = release));
    await new Promise((done) => setTimeout(done, 200));
    expect(second).toBeUndefined();
    first();
    await waiting;
    expect(second).toBeDefined();
    second?.();
  });
});
