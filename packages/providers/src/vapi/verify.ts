import { createHash, timingSafeEqual } from 'node:crypto';
import { VapiCredentialsSchema, type VapiCredentials } from '@earshot/contracts';
import type { DeliveryRequest, Verifier } from '../delivery';
import { hmac, sameSignature, withinWindow } from '../signatures';

type Hmac = Extract<VapiCredentials, { type: 'hmac' }>;

/** Vapi documents no window for its HMAC timestamp; ours is the usual five minutes, either way. */
const TOLERANCE_MS = 5 * 60_000;
const LEGACY_SECRET_HEADER = 'x-vapi-secret';

/** Vapi sends Unix time; a value of 13 digits or more is milliseconds. */
const millisOf = (timestamp: string) => (timestamp.length >= 13 ? Number(timestamp) : Number(timestamp) * 1000);

/** The bytes Vapi signs: the plan's payload format with its placeholders filled, the body as its raw bytes. */
function signedBytes(plan: Hmac, request: DeliveryRequest, timestamp: string): Buffer {
  const format = plan.payloadFormat ?? (plan.includeTimestamp ? '{timestamp}.{body}' : '{body}');
  const values: Record<string, string> = {
    timestamp,
    method: request.method,
    url: request.url,
    'svix-id': plan.messageIdHeader ? (request.headers[plan.messageIdHeader] ?? '') : '',
  };
  const parts = format.split(/(\{body\}|\{timestamp\}|\{method\}|\{url\}|\{svix-id\})/);
  return Buffer.concat(parts.map((part) => (part === '{body}' ? request.body : Buffer.from(values[part.slice(1, -1)] ?? part))));
}

function hmacMatches(plan: Hmac, request: DeliveryRequest, presented: string, timestamp: string): boolean {
  const key = plan.secretIsBase64 ? Buffer.from(plan.secretKey, 'base64') : plan.secretKey;
  const expected = hmac(plan.algorithm, key, signedBytes(plan, request, timestamp)).toString(plan.signatureEncoding);
  return sameSignature(presented, `${plan.signaturePrefix}${expected}`);
}

/** A token compared through digests, so neither its length nor its content leaks through timing. */
function sameToken(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

function tokenMatches(credential: Exclude<VapiCredentials, Hmac>, request: DeliveryRequest): boolean {
  if (credential.type === 'secret') return sameToken(request.headers[LEGACY_SECRET_HEADER] ?? '', credential.secret);
  const expected = credential.bearerPrefixEnabled ? `Bearer ${credential.token}` : credential.token;
  return sameToken(request.headers[credential.headerName] ?? '', expected);
}

/**
 * The credential the tenant gave Vapi for its server URL: an HMAC plan
 * (signature and timestamp headers, payload format, algorithm and encoding
 * as configured there), a bearer token, or the legacy X-Vapi-Secret.
 */
export function vapiVerifier(credentials: readonly unknown[]): Verifier {
  const plans = credentials.map((c) => VapiCredentialsSchema.parse(c));
  return (request) => {
    const refusals: string[] = [];
    let matched = false;
    for (const plan of plans) {
      if (plan.type !== 'hmac') {
        if (tokenMatches(plan, request)) matched = true;
        else refusals.push(plan.type === 'secret' ? `${LEGACY_SECRET_HEADER} does not hold the server secret` : `${plan.headerName} does not hold the token`);
        continue;
      }
      const presented = request.headers[plan.signatureHeader];
      const timestamp = plan.includeTimestamp ? request.headers[plan.timestampHeader] : '';
      if (!presented || timestamp === undefined) {
        refusals.push(`the ${plan.signatureHeader}${plan.includeTimestamp ? ` and ${plan.timestampHeader}` : ''} headers are required`);
      } else if (plan.includeTimestamp && !(/^\d{9,16}$/.test(timestamp) && withinWindow(millisOf(timestamp), request.receivedAt, TOLERANCE_MS))) {
        refusals.push(`${plan.timestampHeader} must be Unix time within 5 minutes of server time`);
      } else if (hmacMatches(plan, request, presented, timestamp)) {
        matched = true;
      } else {
        refusals.push(`${plan.signatureHeader} does not match the body: sign it as the credential's HMAC plan says`);
      }
    }
    return matched ? { ok: true, deliveryId: null, signedAt: null } : { ok: false, reason: [...new Set(refusals)].join('; ') };
  };
}
