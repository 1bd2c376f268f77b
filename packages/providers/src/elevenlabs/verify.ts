import { SharedSecretCredentialsSchema } from '@earshot/contracts';
import type { Verifier } from '../delivery';
import { anyMatches, hmac, sameSignature, withinWindow } from '../signatures';

const ELEVENLABS_SIGNATURE_HEADER = 'elevenlabs-signature';
/** The SDK's constructEvent refuses a timestamp older than 30 minutes. */
const TOLERANCE_MS = 30 * 60_000;

/**
 * `ElevenLabs-Signature: t=<unix s>,v0=<hex>`: HMAC-SHA256 keyed with the
 * webhook secret over `t + "." + raw body`, as @elevenlabs/elevenlabs-js's
 * `webhooks.constructEvent` checks it.
 */
export function elevenLabsVerifier(credentials: readonly unknown[]): Verifier {
  const secrets = credentials.map((c) => SharedSecretCredentialsSchema.parse(c).secret);
  return (request) => {
    const header = request.headers[ELEVENLABS_SIGNATURE_HEADER];
    if (!header) return { ok: false, reason: `the ${ELEVENLABS_SIGNATURE_HEADER} header is required` };
    const parts = header.split(',');
    const timestamp = parts.find((p) => p.startsWith('t='))?.slice(2);
    const signature = parts.find((p) => p.startsWith('v0='));
    if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature)
      return { ok: false, reason: `${ELEVENLABS_SIGNATURE_HEADER} must be t=<unix seconds>,v0=<hex>` };
    if (!withinWindow(Number(timestamp) * 1000, request.receivedAt, TOLERANCE_MS)) {
      return { ok: false, reason: `${ELEVENLABS_SIGNATURE_HEADER} was made more than 30 minutes from server time` };
    }
    const signed = anyMatches(secrets, (secret) => sameSignature(signature, `v0=${hmac('sha256', secret, `${timestamp}.`, request.body).toString('hex')}`));
    if (!signed) return { ok: false, reason: `${ELEVENLABS_SIGNATURE_HEADER} does not match the body: sign it with the webhook secret` };
    return { ok: true, deliveryId: null, signedAt: new Date(Number(timestamp) * 1000) };
  };
}
