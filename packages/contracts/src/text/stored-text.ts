import { z } from 'zod';

/**
 * Text PostgreSQL and Avro hold as sent: no NUL (PostgreSQL text holds none;
 * a write with one stopped the projector, a filter with one was a 500) and
 * no UTF-16 surrogate without its pair (it has no UTF-8 form: Avro would keep
 * U+FFFD instead, and jsonb refuses it). With the u flag a pair is one code
 * point, outside the class, so emoji pass; the document carries the pattern.
 */
// eslint-disable-next-line no-control-regex -- NUL is the very character the rule refuses
const STORABLE = /^[^\u0000\uD800-\uDFFF]*$/u;
// Two patterns in the document: a UTF-8 regex engine (Rust's, schemathesis's validator) cannot compile a surrogate
// range and drops that pattern, but it keeps the NUL one instead of losing both.
// eslint-disable-next-line no-control-regex -- as above
const NO_NUL = /^[^\u0000]*$/u;
const NO_LONE_SURROGATE = /^[^\uD800-\uDFFF]*$/u;
// eslint-disable-next-line no-control-regex -- as above
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/gu;

/** The most characters any string of a request may hold (JSON_LIMITS.maxStringChars). */
export const MAX_TEXT_CHARS = 65_536;

/** The longest id or key a sender may give (idempotency keys, call, agent, turn and tool-call ids): it stays well under a btree entry. */
export const MAX_ID_CHARS = 255;

/** Text of at most `max` UTF-16 code units that PostgreSQL and Avro can hold. */
export function storedText(max: number) {
  return z.string().max(max).regex(NO_NUL, 'no NUL character').regex(NO_LONE_SURROGATE, 'no unpaired surrogate');
}

/** An id or key a sender gives: stored text, 1 to 255 characters. */
export const storedId = storedText(MAX_ID_CHARS).min(1);

/** Text a sender gives where no tighter bound applies: the rule every string of a request meets anyway, stated. */
export const senderText = storedText(MAX_TEXT_CHARS);

export function isStorableText(text: string): boolean {
  return STORABLE.test(text);
}

/**
 * Someone else's text as a record of ours may keep it (a dead letter's
 * reason, a delivery's idempotency key): what cannot be stored becomes
 * U+FFFD, and it is cut to `max`, so recording a bad request never fails.
 */
export function storableText(text: string, max: number): string {
  return text.slice(0, max).replace(UNSTORABLE, '\uFFFD');
}
