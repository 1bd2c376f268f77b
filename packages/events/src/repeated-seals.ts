import { openWith, sealValue, type DataKey } from './field-sealing';

/**
 * Values that repeat on every event of a call, as the call block's numbers
 * and customer fields do, sealed and opened once per data key rather than
 * with an AES-GCM per event: that was a third of the projector's time.
 *
 * A repeated plaintext keeps the one seal made for it under the same key and
 * path, so equal sealed values show a reader without the key only that a
 * field is the same on two events of one call, which their call id already
 * ties together. GCM forbids a nonce reused for another plaintext or other
 * associated data, never a ciphertext written again whole.
 */
const PER_KEY = 16;

const seals = new WeakMap<DataKey, Map<string, string>>();
/**
 * By the key's bytes as the reader's lookup hands them out, so an entry opens nothing once the lookup no longer holds
 * that key; then by path, the last value opened there: a call's block has one, and a constant path is a cheap key.
 */
const openings = new WeakMap<Buffer, Map<string, { sealed: string; plaintext: string }>>();

function memoOf<K extends object, V>(memos: WeakMap<K, Map<string, V>>, key: K): Map<string, V> {
  let memo = memos.get(key);
  if (memo === undefined) {
    memo = new Map();
    memos.set(key, memo);
  }
  // A call's block holds a few values: a key with more starts over rather than growing without bound.
  if (memo.size >= PER_KEY) memo.clear();
  return memo;
}

export function sealRepeated(plaintext: string, dataKey: DataKey, path: string): string {
  // Its length first: a path and a value never run together as another path and value would (a tenant names metadata keys).
  const slot = `${path.length}:${path}${plaintext}`;
  const known = seals.get(dataKey)?.get(slot);
  if (known !== undefined) return known;
  const sealed = sealValue(plaintext, dataKey, path);
  memoOf(seals, dataKey).set(slot, sealed);
  return sealed;
}

/** openWith, answered from the first opening of the same sealed value at the same path with the same key. */
export function openRepeated(value: string, keyId: string, key: Buffer, path: string): string {
  const known = openings.get(key)?.get(path);
  if (known?.sealed === value) return known.plaintext;
  const plaintext = openWith(value, keyId, key, path);
  memoOf(openings, key).set(path, { sealed: value, plaintext });
  return plaintext;
}
