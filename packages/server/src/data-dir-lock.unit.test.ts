import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './data-dir-lock';

describe('the embedded data directory lock', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'earshot-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is refused while a live process holds it, naming the process', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'earshot.pid'), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(`another earshot process (pid ${process.ppid}) is using ${dir}`);
  });

  it('is taken over from a process that died, and released on stop', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'earshot.pid'), '2147483646\n');
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, 'earshot.pid'), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    lockDataDir(dir).release();
  });
});
