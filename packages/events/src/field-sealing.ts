import { createCipheriv, createDecipheriv, randomFillSync, type DecipherGCM } from 'node:crypto';

/** A data key: what seals the personal fields of one call's events (or a tenant's events about no call). */
export interface DataKey {
  /** Named in every value it sealed, so a reader knows which key opens it. */
  readonly id: string;
  /** 32 bytes, AES-256-GCM. */
  readonly key: Buffer;
}

/** The data keys a reader holds, by id; undefined for a key it does not hold (destroyed, or another tenant's). */
export type KeyLookup = (keyId: string) => Buffer | undefined;

/**
 * A sealed value, in the string field it replaces: `sealed:v1:<key id>:<base64url of nonce, tag and ciphertext>`.
 * Self-describing, so a data team reading the log with schemas/ alone sees which fields are sealed and by which key.
 */
export const SEALED_PREFIX = 'sealed:v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

/** Whether a sealed value names this key: sealedWith without taking the id out to compare it. */
export function names(value: string, keyId: string): boolean {
  return value.startsWith(keyId, SEALED_PREFIX.length) && value.charCodeAt(SEALED_PREFIX.length + keyId.length) === COLON;
}

const COLON = 58;

/** The id of the key that sealed a value. */
export function sealedWith(value: string): string | undefined {
  const keyId = value.slice(SEALED_PREFIX.length, value.indexOf(':', SEALED_PREFIX.length));
  return isSealed(value) && KEY_ID.test(keyId) ? keyId : undefined;
}

/**
 * Random nonces drawn from the system's generator 512 at a time, as Node's
 * randomUUID does: one draw per field cost more than the encryption. Each
 * is used once.
 */
const nonces = Buffer.alloc(NONCE_BYTES * 512);
let nextNonce = nonces.length;

/**
 * The field's path is bound into the seal, so a sealed value moved to another field does not open. Bytes are sealed
 * as they are: a dead letter's body may not even be UTF-8.
 */
export function sealValue(plaintext: string | Uint8Array, dataKey: DataKey, path: string): string {
  if (nextNonce === nonces.length) {
    randomFillSync(nonces);
    nextNonce = 0;
  }
  // GCM's ciphertext is as long as the plaintext, so the sealed bytes are written into one buffer: nonce, tag, ciphertext.
  const sealed = Buffer.allocUnsafe(NONCE_BYTES + TAG_BYTES + Buffer.byteLength(plaintext, 'utf8'));
  nextNonce += nonces.copy(sealed, 0, nextNonce, nextNonce + NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dataKey.key, sealed.subarray(0, NONCE_BYTES));
  cipher.setAAD(Buffer.from(`${dataKey.id}|${path}`));
  (typeof plaintext === 'string' ? cipher.update(plaintext, 'utf8') : cipher.update(plaintext)).copy(sealed, NONCE_BYTES + TAG_BYTES);
  cipher.final();
  cipher.getAuthTag().copy(sealed, NONCE_BYTES);
  return `${SEALED_PREFIX}${dataKey.id}:${sealed.toString('base64url')}`;
}

/** A sealed value that does not open with the key it names: its bytes were altered (the seal's tag does not match), or cut short. */
export class UnreadableSealedValue extends Error {
  constructor(
    readonly path: string,
    readonly keyId: string,
  ) {
    super(`${path}: the sealed value does not open with key ${keyId}, which it names: its bytes were altered`);
  }
}

/** The plaintext, or undefined when the key is not held (destroyed: the value stays unreadable). Throws UnreadableSealedValue when the value was altered. */
export function openValue(value: string, keys: KeyLookup, path: string): string | undefined {
  const keyId = keyIdOf(value, path);
  const key = keys(keyId);
  return key === undefined ? undefined : openWith(value, keyId, key, path);
}

/** openValue with the key it names already looked up (openRecord looks it up once for an event's fields). */
export function openWith(value: string, keyId: string, key: Buffer, path: string): string {
  const { decipher, body } = decipherOf(value, keyId, key, path);
  // GCM adds no padding, so final() only checks the tag: the text is update()'s bytes, decoded once.
  const opened = decipher.update(body);
  authenticated(() => decipher.final(), path, keyId);
  return opened.toString('utf8');
}

/** openValue for a value sealed from bytes. */
export function openBytes(value: string, keys: KeyLookup, path: string): Buffer | undefined {
  const keyId = keyIdOf(value, path);
  const key = keys(keyId);
  if (key === undefined) return undefined;
  const { decipher, body } = decipherOf(value, keyId, key, path);
  const opened = decipher.update(body);
  return Buffer.concat([opened, authenticated(() => decipher.final(), path, keyId)]);
}

function keyIdOf(value: string, path: string): string {
  const keyId = sealedWith(value);
  if (keyId === undefined) throw new Error(`${path}: not a sealed value`);
  return keyId;
}

function decipherOf(value: string, keyId: string, key: Buffer, path: string): { decipher: DecipherGCM; body: Buffer } {
  const bytes = Buffer.from(value.slice(SEALED_PREFIX.length + keyId.length + 1), 'base64url');
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new UnreadableSealedValue(path, keyId);
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(`${keyId}|${path}`));
  decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return { decipher, body: bytes.subarray(NONCE_BYTES + TAG_BYTES) };
}

/** The decipher's last output, which checks the tag. */
function authenticated<T>(final: () => T, path: string, keyId: string): T {
  try {
    return final();
  } catch {
    // OpenSSL says only "unable to authenticate data"; the path and the key say which value, and why.
    throw new UnreadableSealedValue(path, keyId);
  }
}
