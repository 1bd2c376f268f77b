import { RetellCredentialsSchema } from '@earshot/contracts';
import type { Verifier } from '../delivery';
import { anyMatches, hmac, sameSignature, withinWindow } from '../signatures';

const RETELL_SIGNATURE_HEADER = 'x-retell-signature';
/** retell-sdk's verify refuses a signature more than five minutes from now, either way. */
const TOLERANCE_MS = 5 * 60_000;

/**
 * `x-retell-signature: v=<unix ms>,d=<hex>`: HMAC-SHA256 keyed with the
 * Retell API key over the raw body followed by the timestamp, as retell-sdk's
 * `verify` computes it.
 */
export function retellVerifier(credentials: readonly unknown[]): Verifier {
  const keys = credentials.map((c) => RetellCredentialsSchema.parse(c).apiKey);
  return (request) => {
    const header = request.headers[RETELL_SIGNATURE_HEADER];
    if (!header) return { ok: false, reason: `the ${RETELL_SIGNATURE_HEADER} header is required` };
    const match = /^v=(\d{1,16}),d=([0-9a-fA-F]{64})$/.exec(header);
    if (!match) return { ok: false, reason: `${RETELL_SIGNATURE_HEADER} must be v=<unix ms>,d=<hex HMAC-SHA256>` };
    const timestamp = Number(match[1]);
    if (!withinWindow(timestamp, request.receivedAt, TOLERANCE_MS)) {
      return { ok: false, reason: `${RETELL_SIGNATURE_HEADER} was made more than 5 minutes from server time` };
    }
    const presented = (match[2] as string).toLowerCase();
    const signed = anyMatches(keys, (key) => sameSignature(presented, hmac('sha256', key, request.body, String(timestamp)).toString('hex')));
    return signed
      ? { ok: true, deliveryId: null, signedAt: new Date(timestamp) }
      : { ok: false, reason: `${RETELL_SIGNATURE_HEADER} does not match the body: sign it with the Retell API key` };
  };
}
