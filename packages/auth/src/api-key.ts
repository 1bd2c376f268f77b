import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { KeyEnvironment } from '@earshot/contracts';

export { KEY_ENVIRONMENTS, SCOPES, type KeyEnvironment, type Scope } from '@earshot/contracts';

const PREFIX: Record<KeyEnvironment, string> = { production: 'ear_live_', staging: 'ear_test_' };
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^(ear_live_|ear_test_)([0-9A-Za-z]{${RANDOM_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);
/** Enough of the key to recognise it in a list, far too little to guess the rest. */
const DISPLAY_LENGTH = PREFIX.production.length + 6;

export interface IssuedApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  displayPrefix: string;
  hash: Buffer;
  environment: KeyEnvironment;
}

export interface ParsedApiKey {
  environment: KeyEnvironment;
  hash: Buffer;
}

/** A new key: 32 random base62 characters (190 bits) and a CRC32 checksum, GitHub-token style. */
export function issueApiKey(environment: KeyEnvironment): IssuedApiKey {
  const body = PREFIX[environment] + Array.from({ length: RANDOM_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const key = body + checksum(body);
  return { key, displayPrefix: key.slice(0, DISPLAY_LENGTH), hash: hashApiKey(key), environment };
}

/**
 * Checks the shape and checksum of a presented key, so a typo or a random
 * string is refused without touching the database.
 */
export function parseApiKey(presented: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return undefined;
  const [, prefix = '', random = '', sum = ''] = match;
  if (checksum(prefix + random) !== sum) return undefined;
  return { environment: prefix === PREFIX.production ? 'production' : 'staging', hash: hashApiKey(presented) };
}

/** Keys are random enough that a fast unsalted hash is safe, and lookups stay one index probe. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function checksum(text: string): string {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % ALPHABET.length] + out;
    value = Math.floor(value / ALPHABET.length);
  }
  return out;
}
