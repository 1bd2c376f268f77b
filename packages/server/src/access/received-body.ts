/** A request body as it arrived: the bytes a signature covers, and the JSON they hold if they are JSON. */
export interface ReceivedBody {
  raw: Buffer;
  json: { ok: true; value: unknown } | { ok: false; error: string };
}

export function receiveBody(raw: Buffer): ReceivedBody {
  try {
    return { raw, json: { ok: true, value: JSON.parse(raw.toString('utf8')) } };
  } catch (error) {
    return { raw, json: { ok: false, error: error instanceof Error ? error.message : String(error) } };
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
