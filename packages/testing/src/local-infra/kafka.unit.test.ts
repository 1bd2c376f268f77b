import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { brokerDataDir, clusterId } from './kafka';

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

describe('the cluster id the storage is formatted with', () => {
  it('never begins with a dash, which the storage tool would take for an option', () => {
    // 0xf8 puts 62, base64url's '-', in the first six bits.
    const draws = [new Uint8Array(16).fill(0xf8), new Uint8Array(16).fill(0x01)];
    const id = clusterId(() => draws.shift() ?? new Uint8Array(16));
    expect(id).toBe(Buffer.from(new Uint8Array(16).fill(0x01)).toString('base64url'));
    expect(Buffer.from(new Uint8Array(16).fill(0xf8)).toString('base64url').startsWith('-')).toBe(true);
  });

  it('is 22 base64url characters, as KRaft reads a UUID', () => {
    for (let i = 0; i < 1000; i++) expect(clusterId()).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});
