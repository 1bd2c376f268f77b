import type { DeadLetter } from '@earshot/contracts';
import { openBytes, sealedWith, sealValue, type DataKey, type KeyLookup } from './field-sealing';

/** The Avro field a dead letter's sealed body stands in, bound into the seal. */
const BODY_PATH = 'body';

/**
 * The dead letter with its body sealed whole, as the sealed value's text,
 * and the key named in `sealed_with`: a refused payload holds whatever the
 * sender sent, so none of it stays readable once that key is gone (the key
 * of the call it names, or its tenant's: see sealingKeys).
 */
export function sealDeadLetter(deadLetter: DeadLetter, key: DataKey): DeadLetter {
  return { ...deadLetter, body: Buffer.from(sealValue(deadLetter.body, key, BODY_PATH), 'utf8'), sealed_with: key.id };
}

/**
 * The body as received: as it is when it was not sealed, opened when it was;
 * undefined when its key is not held (destroyed: the body was erased).
 * Throws when the body does not name the key `sealed_with` does, or was altered.
 */
export function openDeadLetterBody(deadLetter: Pick<DeadLetter, 'id' | 'sealed_with'> & { body: Uint8Array }, keys: KeyLookup): Uint8Array | undefined {
  if (deadLetter.sealed_with === null) return deadLetter.body;
  const sealed = Buffer.from(deadLetter.body).toString('utf8');
  if (sealedWith(sealed) !== deadLetter.sealed_with) throw new Error(`dead letter ${deadLetter.id}: the body is not sealed with ${deadLetter.sealed_with}`);
  return openBytes(sealed, keys, BODY_PATH);
}

/** The dead letter with its body opened (and `sealed_with` null) where the keys given hold its key; as it is otherwise. */
export function openDeadLetter(deadLetter: DeadLetter, keys: KeyLookup | undefined): DeadLetter {
  if (deadLetter.sealed_with === null || keys === undefined) return deadLetter;
  const body = openDeadLetterBody(deadLetter, keys);
  return body === undefined ? deadLetter : { ...deadLetter, body: new Uint8Array(body), sealed_with: null };
}
