import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@earshot/config';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals secrets at rest with AES-256-GCM under the master key: nonce, tag and
 * ciphertext in one value. During a rotation of the master key it also opens
 * what the previous key sealed, so processes keep working while
 * `earshot keys rotate-master` re-wraps the stored values.
 */
export class SecretBox {
  constructor(
    private readonly masterKey: Buffer,
    private readonly previousKey?: Buffer,
  ) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
    if (previousKey !== undefined && previousKey.length !== 32) throw new Error('the previous master key must be 32 bytes');
  }

  seal(plaintext: string): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, nonce);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, cipher.getAuthTag(), sealed]);
  }

  /** Throws when the value was sealed under another key (nor the previous one) or altered. */
  open(sealed: Uint8Array): string {
    const value = Buffer.from(sealed);
    if (this.previousKey === undefined) return openWith(this.masterKey, value);
    try {
      return openWith(this.masterKey, value);
    } catch {
      return openWith(this.previousKey, value);
    }
  }
}

function openWith(key: Buffer, value: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, value.subarray(0, NONCE_BYTES));
  decipher.setAuthTag(value.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(value.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

const MASTER_KEY_FILE = 'master.key';

/**
 * The master key from EARSHOT_MASTER_KEY. Outside production, when it is not
 * set, one is generated once and kept (mode 0600) in the data directory, so
 * secrets sealed by the zero-setup mode still open after a restart.
 */
export function loadMasterKey(config: Pick<Config, 'NODE_ENV' | 'EARSHOT_MASTER_KEY' | 'EARSHOT_DATA_DIR'>): Buffer {
  if (config.EARSHOT_MASTER_KEY) return Buffer.from(config.EARSHOT_MASTER_KEY, 'base64');
  if (config.NODE_ENV === 'production') throw new Error('EARSHOT_MASTER_KEY is required when NODE_ENV=production: 32 random bytes, base64-encoded');
  const file = join(config.EARSHOT_DATA_DIR, MASTER_KEY_FILE);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key; remove it or set EARSHOT_MASTER_KEY`);
    return key;
  }
  mkdirSync(config.EARSHOT_DATA_DIR, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

/** The previous master key from EARSHOT_MASTER_KEY_PREVIOUS, set only while a rotation is under way. */
export function loadPreviousMasterKey(config: Pick<Config, 'EARSHOT_MASTER_KEY_PREVIOUS'>): Buffer | undefined {
  return config.EARSHOT_MASTER_KEY_PREVIOUS === undefined ? undefined : Buffer.from(config.EARSHOT_MASTER_KEY_PREVIOUS, 'base64');
}

/** The box every process seals and opens with: the master key, and the previous one while a rotation runs. */
export function masterSecretBox(config: Pick<Config, 'NODE_ENV' | 'EARSHOT_MASTER_KEY' | 'EARSHOT_MASTER_KEY_PREVIOUS' | 'EARSHOT_DATA_DIR'>): SecretBox {
  return new SecretBox(loadMasterKey(config), loadPreviousMasterKey(config));
}
