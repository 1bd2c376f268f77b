import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiKeyCache, KeyRefusal } from '@earshot/auth';
import { ApiError } from '@earshot/contracts';
import { allowsAddress } from './ip-allowlist';

export interface AuthDependencies {
  keys: ApiKeyCache;
  adminToken: string | undefined;
  now: () => Date;
}

/** Who-are-you failures are 401 with what was wrong with the key; not-allowed failures are 403. */
const REFUSED: Record<KeyRefusal, string> = {
  malformed: 'the API key is malformed or its checksum does not match: keys look like ear_live_… or ear_test_…',
  unknown: 'the API key is not known',
  revoked: 'the API key has been revoked',
  expired: 'the API key has expired',
};

/**
 * Authentication enforced from each route's declared policy, for every
 * service on the app: the operator's admin token, or an API key (checksum,
 * lookup, revocation, expiry), then its IP allowlist and the route's scope.
 * Routes without a policy (health) pass.
 */
export function registerAuthHook(app: FastifyInstance, deps: AuthDependencies): void {
  app.decorateRequest('caller', null);
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
    const found = await deps.keys.identify(presented, request.arrivedAt);
    if (!found.ok) throw new ApiError('UNAUTHORIZED', REFUSED[found.reason]);
    const caller = found.key;
    if (!allowsAddress(caller.ipAllowlist, request.ip)) throw new ApiError('FORBIDDEN', `the API key may not be used from ${request.ip}`);
    if (!caller.scopes.includes(policy.scope)) throw new ApiError('FORBIDDEN', `the API key lacks the ${policy.scope} scope`);
    request.caller = caller;
  });
}

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function bearer(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(request, 'authorization') ?? '');
  return match?.[1];
}

/** Compares digests, so neither the length nor the content of the token leaks through timing. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
