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

/**
 * The exact bytes of each item of a body that is a JSON array, as sent: a
 * dead letter keeps what the sender wrote, and no item is serialized again
 * (JSON.stringify recurses, and a deep item overflowed it). One pass with a
 * depth counter, over text JSON.parse has already accepted.
 */
export function batchItemBytes(body: ReceivedBody): Buffer[] {
  const text = body.text ?? '';
  const items: Buffer[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  const close = (end: number) => {
    if (start >= 0) items.push(Buffer.from(text.slice(start, end).trimEnd(), 'utf8'));
    start = -1;
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
      continue;
    }
    if (depth === 1 && start < 0 && char !== ',' && char !== ']' && !/\s/.test(char ?? '')) start = at;
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') depth++;
    else if (char === ']' || char === '}') {
      if (--depth === 0) close(at);
    } else if (char === ',' && depth === 1) close(at);
  }
  return items;
}
