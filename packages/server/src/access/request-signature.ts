import type { FastifyRequest } from 'fastify';
import { SIGNATURE_WINDOW_SECONDS, verifySignature, type ApiKeyCache, type AuthenticatedKey } from '@earshot/auth';
import { ApiError } from '@earshot/contracts';
import { receivedBody } from './received-body';
import { bearer, header } from './request-headers';
import type { SignaturePolicy } from './route-policy';

/**
 * The HMAC signature over the raw body, for a route that declares one: after
 * the key has named the caller (whose webhook secrets sign), before the rate
 * limits, so forged requests spend no allowance.
 */
export async function checkSignature(request: FastifyRequest, caller: AuthenticatedKey, policy: SignaturePolicy, keys: ApiKeyCache): Promise<void> {
  const { timestampHeader, signatureHeader } = policy;
  const signed = { timestamp: header(request, timestampHeader), signature: header(request, signatureHeader), body: receivedBody(request.body).raw };
  let check = verifySignature(signed, caller.webhookSecrets, request.arrivedAt);
  if (!check.ok && check.reason === 'mismatch') {
    // The secret may have been rotated since the key was cached: look again before refusing.
    const fresh = await keys.refresh(bearer(request) ?? '', request.arrivedAt);
    if (fresh) check = verifySignature(signed, fresh.webhookSecrets, request.arrivedAt);
  }
  if (check.ok) return;
  switch (check.reason) {
    case 'missing':
      throw new ApiError('UNAUTHORIZED', `the ${signatureHeader} and ${timestampHeader} headers are required`);
    case 'timestamp':
      throw new ApiError('UNAUTHORIZED', `${timestampHeader} must be Unix time in seconds`);
    case 'stale':
      throw new ApiError('UNAUTHORIZED', `${timestampHeader} is outside the allowed window of ±${SIGNATURE_WINDOW_SECONDS} s of server time`);
    case 'mismatch':
      throw new ApiError(
        'UNAUTHORIZED',
        `${signatureHeader} does not match the body: sign timestamp + "." + the raw body with the webhook secret (HMAC-SHA256, lowercase hex)`,
      );
    default: {
      const unknown: never = check.reason;
      throw new Error(`unknown signature check ${String(unknown)}`);
    }
  }
}
