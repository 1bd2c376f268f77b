import { SharedSecretCredentialsSchema } from '@earshot/contracts';
import type { Verifier } from '../delivery';
import { anyMatches, hmac, sameSignature } from '../signatures';

const BLAND_SIGNATURE_HEADER = 'x-webhook-signature';

/**
 * `X-Webhook-Signature`: hex HMAC-SHA256 of the raw body keyed with the
 * signing secret from Bland's dev portal (docs.bland.ai, Webhook Signing).
 * Bland signs no timestamp: replays are caught by the events' keys alone.
 */
export function blandVerifier(credentials: readonly unknown[]): Verifier {
  const secrets = credentials.map((c) => SharedSecretCredentialsSchema.parse(c).secret);
  return (request) => {
    const signature = request.headers[BLAND_SIGNATURE_HEADER];
    if (!signature) return { ok: false, reason: `the ${BLAND_SIGNATURE_HEADER} header is required` };
    const presented = signature.toLowerCase();
    const signed = anyMatches(secrets, (secret) => sameSignature(presented, hmac('sha256', secret, request.body).toString('hex')));
    return signed
      ? { ok: true, deliveryId: null, signedAt: null }
      : { ok: false, reason: `${BLAND_SIGNATURE_HEADER} does not match the body: sign it with the webhook signing secret` };
  };
}
