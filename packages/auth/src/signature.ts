import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a signed timestamp may be from server time, either way. */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** Lowercase hex HMAC-SHA256 over `timestamp + "." + body`, keyed with the webhook secret. */
export function signBody(secret: string, timestamp: string, body: Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'timestamp' | 'stale' | 'mismatch' };

export interface SignedRequest {
  timestamp: string | undefined;
  signature: string | undefined;
  /** The raw request bytes, exactly as received: a re-serialized body must not verify. */
  body: Uint8Array;
}

/**
 * Verifies a signed request against each current secret (two during a
 * rotation), in constant time per comparison, within the time window.
 */
export function verifySignature(request: SignedRequest, secrets: readonly string[], now: Date): SignatureCheck {
  const { timestamp, signature } = request;
  if (!timestamp || !signature) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'timestamp' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return { ok: false, reason: 'stale' };
  if (!/^[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'mismatch' };
  const presented = Buffer.from(signature, 'hex');
  let matched = false;
  // Every secret is compared, so the time taken does not tell which one matched.
  for (const secret of secrets) {
    if (timingSafeEqual(presented, Buffer.from(signBody(secret, timestamp, request.body), 'hex'))) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'mismatch' };
}
