import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMasterKey, masterSecretBox, SecretBox } from './secret-box';

const dataDir = mkdtempSync(join(tmpdir(), 'earshot-master-key-'));

describe('secrets at rest', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seals with AES-256-GCM and opens only under the same key, unaltered', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('whsec_abc');
    expect(sealed.includes(Buffer.from('whsec_abc'))).toBe(false);
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1;
    expect(() => box.open(altered)).toThrow();
  });

  it('during a rotation, seals under the new key and opens under either', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const sealedBefore = new SecretBox(oldKey).seal('whsec_old');
    const during = masterSecretBox({
      NODE_ENV: 'production',
      EARSHOT_MASTER_KEY: newKey.toString('base64'),
      EARSHOT_MASTER_KEY_PREVIOUS: oldKey.toString('base64'),
      EARSHOT_DATA_DIR: dataDir,
    });
    expect(during.open(sealedBefore)).toBe('whsec_old');
    const sealedDuring = during.seal('whsec_new');
    expect(new SecretBox(newKey).open(sealedDuring)).toBe('whsec_new');
    expect(() => new SecretBox(oldKey).open(sealedDuring)).toThrow();
    expect(() => during.open(new SecretBox(randomBytes(32)).seal('whsec_stranger'))).toThrow();
  });

  it('takes EARSHOT_MASTER_KEY when set', () => {
    const key = randomBytes(32);
    expect(loadMasterKey({ NODE_ENV: 'production', EARSHOT_MASTER_KEY: key.toString('base64'), EARSHOT_DATA_DIR: dataDir }).equals(key)).toBe(true);
  });

  it('refuses to start in production without a master key, naming the variable', () => {
    expect(() => loadMasterKey({ NODE_ENV: 'production', EARSHOT_MASTER_KEY: undefined, EARSHOT_DATA_DIR: dataDir })).toThrow(/EARSHOT_MASTER_KEY is required/);
  });

  it('outside production, generates one key into the data directory (mode 0600) and reuses it', () => {
    const first = loadMasterKey({ NODE_ENV: 'development', EARSHOT_MASTER_KEY: undefined, EARSHOT_DATA_DIR: dataDir });
    const file = join(dataDir, 'master.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    expect(loadMasterKey({ NODE_ENV: 'development', EARSHOT_MASTER_KEY: undefined, EARSHOT_DATA_DIR: dataDir }).equals(first)).toBe(true);
  });
});
