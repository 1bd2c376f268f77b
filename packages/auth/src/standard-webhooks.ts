import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

/** How far a Standard Webhooks timestamp may be from now, either way (the libraries' own tolerance). */
export const STANDARD_WEBHOOKS_TOLERANCE_SECONDS = 300;

/**
 * A new `whsec_` secret: 32 random bytes in standard base64 with padding,
 * the form the official standardwebhooks libraries decode (our ingest
 * signature keys with the whole text, so either form serves it).
 */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The HMAC key of a `whsec_` secret: its base64 decoded. Secrets made before
 * 2026-11 are base64url (43 characters, no padding); Node's decoder reads
 * both alphabets, so an old secret keys with the same 32 bytes Earshot's SDKs
 * derive from it. The official libraries need the standard form: rotate an
 * old secret once to use them.
 */
export function standardWebhookKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, as the Standard Webhooks specification signs. */
export function standardWebhookSignature(secret: string, id: string, timestamp: string, body: Uint8Array): string {
  const mac = createHmac('sha256', standardWebhookKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a signed message; one signature per secret (two while a rotation overlaps), space separated. */
export function standardWebhookHeaders(secrets: readonly string[], id: string, timestamp: string, body: Uint8Array): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => standardWebhookSignature(secret, id, timestamp, body)).join(' '),
  };
}

export interface StandardWebhookMessage {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Uint8Array;
}

export type StandardWebhookCheck = { ok: true; id: string } | { ok: false; reason: 'missing' | 'timestamp' | 'stale' | 'mismatch' };

/**
 * Verifies a message against each secret, comparing every `v1` signature of
 * the header in constant time, within the tolerance either way.
 */
export function verifyStandardWebhook(message: StandardWebhookMessage, secrets: readonly string[], now: Date): StandardWebhookCheck {
  const { id, timestamp, signature } = message;
  if (!id || !timestamp || !signature) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'timestamp' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > STANDARD_WEBHOOKS_TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  const presented = signature
    .split(' ')
    .map((part) => part.split(','))
    .filter(([version, value]) => version === 'v1' && value !== undefined)
    .map(([, value]) => Buffer.from(value as string));
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(standardWebhookSignature(secret, id, timestamp, message.body).slice(3));
    for (const candidate of presented) if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched ? { ok: true, id } : { ok: false, reason: 'mismatch' };
}
