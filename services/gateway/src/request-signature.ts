import type { FastifyInstance } from 'fastify';
import { SIGNATURE_WINDOW_SECONDS, verifySignature, type ApiKeyCache } from '@earshot/auth';
import { ApiError } from '@earshot/contracts';
import { bearer, header } from '@earshot/server';
import { receivedBody } from './route-policy';

/**
 * The HMAC signature over the raw body, on the routes that declare one. It
 * runs after the shared API-key hook has named the caller, and before the
 * rate-limit hook, so forged requests spend no allowance.
 */
export function registerSignatureHook(app: FastifyInstance, keys: ApiKeyCache): void {
  app.addHook('preHandler', async (request) => {
    const policy = request.routeOptions.config.signature;
    if (!policy || !request.caller) return;
    const { timestampHeader, signatureHeader } = policy;
    const signed = { timestamp: header(request, timestampHeader), signature: header(request, signatureHeader), body: receivedBody(request.body).raw };
    let check = verifySignature(signed, request.caller.webhookSecrets, request.arrivedAt);
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
  });
}
