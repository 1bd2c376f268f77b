import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SIGNATURE_WINDOW_SECONDS, verifySignature, type ApiKeyCache } from '@earshot/auth';
import { ApiError } from '@earshot/contracts';
import { receivedBody } from './route-policy';

export interface AuthDependencies {
  keys: ApiKeyCache;
  adminToken: string | undefined;
  now: () => Date;
}

/**
 * The gateway's authentication, enforced from each route's declared policy:
 * the operator's admin token, or an API key (checksum, lookup, scope) and
 * then the HMAC signature over the raw body.
 */
export function registerAuthHooks(app: FastifyInstance, deps: AuthDependencies): void {
  app.addHook('onRequest', async (request) => {
    request.arrivedAt = deps.now();
    const policy = request.routeOptions.config.policy;
    if (!policy) return;
    const presented = bearer(request);
    if (policy.auth === 'admin') {
      if (!deps.adminToken) throw new ApiError('UNAUTHORIZED', 'the operator API is disabled: EARSHOT_ADMIN_TOKEN is not set');
      if (!presented || !sameSecret(presented, deps.adminToken)) throw new ApiError('UNAUTHORIZED', 'a valid operator token is required: Authorization: Bearer $EARSHOT_ADMIN_TOKEN');
      return;
    }
    if (!presented) throw new ApiError('UNAUTHORIZED', 'an API key is required: Authorization: Bearer ear_live_… or ear_test_…');
    const caller = await deps.keys.authenticate(presented, request.arrivedAt);
    if (!caller) throw new ApiError('UNAUTHORIZED', 'the API key is invalid, revoked or expired');
    if (!caller.scopes.includes(policy.scope)) throw new ApiError('FORBIDDEN', `the API key lacks the ${policy.scope} scope`);
    request.caller = caller;
  });

  app.addHook('preHandler', async (request) => {
    const policy = request.routeOptions.config.policy;
    if (policy?.auth !== 'apiKey' || !request.caller) return;
    const { timestampHeader, signatureHeader } = policy.signature;
    const signed = { timestamp: header(request, timestampHeader), signature: header(request, signatureHeader), body: receivedBody(request.body).raw };
    let check = verifySignature(signed, request.caller.webhookSecrets, request.arrivedAt);
    if (!check.ok && check.reason === 'mismatch') {
      // The secret may have been rotated since the key was cached: look again before refusing.
      const fresh = await deps.keys.refresh(bearer(request) ?? '', request.arrivedAt);
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
        throw new ApiError('UNAUTHORIZED', `${signatureHeader} does not match the body: sign timestamp + "." + the raw body with the webhook secret (HMAC-SHA256, lowercase hex)`);
      default: {
        const unknown: never = check.reason;
        throw new Error(`unknown signature check ${String(unknown)}`);
      }
    }
  });
}

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function bearer(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
  return match?.[1];
}

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
