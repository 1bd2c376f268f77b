/** HMAC-SHA256 through Web Crypto, so signing works the same in Node 20+ and in browsers. */
const encoder = new TextEncoder();

async function hmac(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const cryptoKey = await globalThis.crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', cryptoKey, message as BufferSource));
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The ingest signature: lowercase hex HMAC-SHA256, keyed with the webhook
 * secret's UTF-8 bytes (its `whsec_` prefix included), over
 * `timestamp + "." + body`.
 */
export async function signIngest(secret: string, timestamp: string, body: string): Promise<string> {
  return hex(await hmac(encoder.encode(secret), encoder.encode(`${timestamp}.${body}`)));
}

/** The headers of a signed ingest request at this moment. */
export async function ingestHeaders(secret: string, body: string, provider: string, now: number = Date.now()): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(now / 1_000));
  return {
    'x-earshot-timestamp': timestamp,
    'x-earshot-signature': await signIngest(secret, timestamp, body),
    'x-earshot-provider': provider,
  };
}

/** HMAC-SHA256 of `message` keyed with raw bytes, as base64: the Standard Webhooks signature. */
export async function hmacBase64(key: Uint8Array, message: string): Promise<string> {
  const bytes = await hmac(key, encoder.encode(message));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
