import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaRegistry } from './default-codec';
import { RELEASED_SCHEMAS } from './released-schemas';
import { SCHEMAS_ROOT } from './schema-files';

const contentDigest = (text: string) =>
  createHash('sha256')
    .update(JSON.stringify(JSON.parse(text)))
    .digest('hex');

describe('released schemas', () => {
  it.each(Object.entries(RELEASED_SCHEMAS))('%s is still there, unchanged', (path, pin) => {
    expect(existsSync(new URL(path.replace(/^schemas\//, ''), SCHEMAS_ROOT)), `${path} was released and must not be deleted`).toBe(true);
    const entry = schemaRegistry().entries.find((candidate) => candidate.path === path);
    expect(entry?.fingerprintHex, `${path} changed its canonical form; release a new version file instead`).toBe(pin.fingerprint);
    expect(entry && contentDigest(entry.text), `${path} changed; released files never change, release a new version file instead`).toBe(pin.sha256);
  });

  it('include every schema file under schemas/', () => {
    const unpinned = schemaRegistry()
      .entries.filter((entry) => !(entry.path in RELEASED_SCHEMAS))
      .map((entry) => `'${entry.path}': { fingerprint: '${entry.fingerprintHex}', sha256: '${contentDigest(entry.text)}' }`);
    expect(unpinned, 'pin each new schema file in released-schemas.ts when it is released').toEqual([]);
  });
});
