import type { EnvelopeInput } from './intake';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * The bytes of each element of a JSON array body, as views into it (no
 * copy): what each envelope of a batch arrived as, for its request hash and
 * its dead letter, without serializing the parsed items again. Only called
 * on bodies JSON.parse accepted as an array of `count` elements, so a scan of
 * the structural bytes suffices (they are ASCII; UTF-8 continuation bytes
 * never equal them). Answers undefined if the scan disagrees with the parse.
 */
export function arrayItems(raw: Buffer, count: number): Buffer[] | undefined {
  const items: Buffer[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let at = 0; at < raw.length; at++) {
    const byte = raw[at];
    if (inString) {
      if (byte === BACKSLASH) at++;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth++;
      if (depth === 1) start = at + 1;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      if (depth === 1) pushTrimmed(items, raw, start, at);
      depth--;
    } else if (byte === COMMA && depth === 1) {
      pushTrimmed(items, raw, start, at);
      start = at + 1;
    }
  }
  return items.length === count ? items : undefined;
}

function pushTrimmed(items: Buffer[], raw: Buffer, from: number, to: number): void {
  let start = from;
  let end = to;
  while (start < end && isSpace(raw[start])) start++;
  while (end > start && isSpace(raw[end - 1])) end--;
  if (end > start) items.push(raw.subarray(start, end));
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The envelopes of a batch body with the bytes each arrived as; re-serialized only if the scan cannot tell. */
export function batchInputs(raw: Buffer, values: readonly unknown[]): EnvelopeInput[] {
  const slices = arrayItems(raw, values.length);
  return values.map((value, index) => ({
    value,
    raw: slices?.[index] ?? Buffer.from(JSON.stringify(value)),
    label: `envelope ${index} of the batch`,
  }));
}
