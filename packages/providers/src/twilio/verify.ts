import { TwilioCredentialsSchema } from '@earshot/contracts';
import type { DeliveryRequest, Verifier } from '../delivery';
import { anyMatches, hmac, sameSignature, sha256Hex } from '../signatures';

const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';
const IDEMPOTENCY_HEADER = 'i-twilio-idempotency-token';

/** The form parameters of a body, by name, each name's values in order. */
export function formParameters(body: Buffer): Map<string, string[]> {
  const parameters = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) parameters.set(name, [...(parameters.get(name) ?? []), value]);
  return parameters;
}

/** Twilio's signing input: the URL, then each parameter name (sorted) followed by its value (a repeated name: its distinct values, sorted). */
function signingInput(url: string, parameters: Map<string, string[]>): string {
  let input = url;
  for (const name of [...parameters.keys()].sort()) {
    for (const value of [...new Set(parameters.get(name))].sort()) input += name + value;
  }
  return input;
}

/** The URL as Twilio may have signed it: as addressed, without its port, and with the scheme's default port (as the twilio package tries). */
function urlForms(url: string): string[] {
  const parsed = new URL(url);
  const origin = `${parsed.protocol}//${parsed.hostname}`;
  const rest = url.slice(url.indexOf('/', parsed.protocol.length + 2));
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return [...new Set([url, `${origin}${rest}`, `${origin}:${port}${rest}`])];
}

/**
 * `X-Twilio-Signature`: base64 HMAC-SHA1 keyed with the Auth Token over the
 * full URL and the sorted form parameters, as the twilio package's
 * `validateRequest` checks. A JSON body is signed through the URL alone,
 * whose `bodySHA256` parameter must then be the body's SHA-256
 * (`validateRequestWithBody`).
 */
export function twilioVerifier(credentials: readonly unknown[]): Verifier {
  const tokens = credentials.map((c) => TwilioCredentialsSchema.parse(c).authToken);
  return (request: DeliveryRequest) => {
    const signature = request.headers[TWILIO_SIGNATURE_HEADER];
    if (!signature) return { ok: false, reason: `the ${TWILIO_SIGNATURE_HEADER} header is required` };
    const bodyHash = new URL(request.url).searchParams.get('bodySHA256');
    if (bodyHash !== null && !sameSignature(bodyHash, sha256Hex(request.body))) return { ok: false, reason: 'the body’s SHA-256 is not the URL’s bodySHA256' };
    const parameters = bodyHash === null ? formParameters(request.body) : new Map<string, string[]>();
    const inputs = urlForms(request.url).map((url) => signingInput(url, parameters));
    const signed = anyMatches(tokens, (token) => inputs.some((input) => sameSignature(signature, hmac('sha1', token, input).toString('base64'))));
    if (!signed) return { ok: false, reason: `${TWILIO_SIGNATURE_HEADER} does not match the URL and parameters: sign them with the account’s Auth Token` };
    return { ok: true, deliveryId: request.headers[IDEMPOTENCY_HEADER] ?? null, signedAt: null };
  };
}
