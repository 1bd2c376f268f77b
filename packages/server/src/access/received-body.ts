/** A request body as it arrived: the bytes a signature covers, and the JSON they hold if they are JSON. */
export interface ReceivedBody {
  raw: Buffer;
  json: { ok: true; value: unknown } | { ok: false; error: string };
  /** The body as text, when it is UTF-8. */
  text?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function receiveBody(raw: Buffer): ReceivedBody {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    // Decoded leniently, invalid bytes would become U+FFFD: stored, yet not what was sent.
    return { raw, json: { ok: false, error: 'the body is not valid UTF-8' } };
  }
  try {
    // JSON.parse does not recurse, so no nesting overflows it; the depth is bounded after it (jsonShapeIssues).
    return { raw, text, json: { ok: true, value: JSON.parse(text) } };
  } catch (error) {
    return { raw, text, json: { ok: false, error: error instanceof Error ? error.message : String(error) } };
  }
}

/** How many events a body carries, for the per-tenant event limit. */
export function eventCount(body: ReceivedBody): number {
  return body.json.ok && Array.isArray(body.json.value) ? Math.max(1, body.json.value.length) : 1;
}

/** The body the raw-body parser of a signed route kept; a request without a body has zero bytes. */
export function receivedBody(body: unknown): ReceivedBody {
  if (body === undefined || body === null) return receiveBody(Buffer.alloc(0));
  if (typeof body === 'object' && 'raw' in body && 'json' in body) return body as ReceivedBody;
  throw new Error('the raw-body parser did not run for this route: a signed route keeps its exact bytes');
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
/** JSON's whitespace: space, tab, line feed, carriage return. */
const isBlank = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/** Where the string opened at `quote` closes: found with indexOf, rather than a step per byte of a transcript. */
function closingQuote(bytes: Buffer, quote: number): number {
  for (let at = bytes.indexOf(QUOTE, quote + 1); at >= 0; at = bytes.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return bytes.length;
}

/**
 * The exact bytes of each item of a body that is a JSON array, as sent: a
 * dead letter keeps what the sender wrote, and no item is serialized again
 * (JSON.stringify recurses, and a deep item overflowed it). One pass with a
 * depth counter over the bytes of UTF-8 text JSON.parse has already
 * accepted, whose structure is ASCII and never part of a longer character;
 * each item is a view of the body, not a copy.
 */
export function batchItemBytes(body: ReceivedBody): Buffer[] {
  if (body.text === undefined) return [];
  const bytes = body.raw;
  const items: Buffer[] = [];
  let depth = 0;
  let start = -1;
  let end = -1;
  const close = () => {
    if (start >= 0) items.push(bytes.subarray(start, end + 1));
    start = -1;
  };
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (isBlank(byte)) continue;
    if (depth === 1 && start < 0 && byte !== COMMA && byte !== CLOSE_BRACKET) start = at;
    if (byte === QUOTE) at = closingQuote(bytes, at);
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) depth++;
    else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      if (--depth === 0) close();
    } else if (byte === COMMA && depth === 1) close();
    // The item's last byte so far: it ends there, without the blanks before a comma or the bracket.
    if (depth >= 1 && start >= 0) end = at;
  }
  return items;
}
