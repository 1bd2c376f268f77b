import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { brokerDataDir } from './kafka';

describe('the broker’s log folder', () => {
  const made: string[] = [];
  afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A state folder whose broker has run: formatted, with a topic's partition written. */
  const usedState = () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'earshot-kafka-data-'));
    made.push(stateDir);
    mkdirSync(join(stateDir, 'kafka-data', 'bench-a.earshot.events-0'), { recursive: true });
    writeFileSync(join(stateDir, 'kafka-data', 'meta.properties'), 'node.id=1\n');
    writeFileSync(join(stateDir, 'kafka-data', 'bench-a.earshot.events-0', '00000000000000000000.log'), 'records');
    return stateDir;
  };

  it('starts empty for a disposable broker (the test infrastructure’s), to be formatted again', () => {
    const dataDir = brokerDataDir({ stateDir: usedState(), disposable: true });
    expect(existsSync(dataDir)).toBe(true);
    expect(existsSync(join(dataDir, 'meta.properties'))).toBe(false);
    expect(existsSync(join(dataDir, 'bench-a.earshot.events-0'))).toBe(false);
  });

  it('is kept for a broker restarted on its own records (a test of a broker outage)', () => {
    const dataDir = brokerDataDir({ stateDir: usedState() });
    expect(existsSync(join(dataDir, 'meta.properties'))).toBe(true);
    expect(existsSync(join(dataDir, 'bench-a.earshot.events-0', '00000000000000000000.log'))).toBe(true);
  });
});
