import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KEY_ENVIRONMENTS, type ApiKeyCache, type KeyEnvironment, type KeyLookup, type KeyRefusal } from '@earshot/auth';
import { ApiError, type ErrorCode } from '@earshot/contracts';
import { allowsAddress } from './ip-allowlist';
import { scopesOf } from './route-policy';

export interface AuthDependencies {
  keys: ApiKeyCache;
  adminToken: string | undefined;
  now: () => Date;
  /** The key environments this deployment accepts (EARSHOT_KEY_ENVIRONMENTS); both when absent. */
  environments?: readonly KeyEnvironment[];
}

/** Who-are-you failures are 401 with what was wrong with the key; a suspended tenant, like other not-allowed failures, is 403. */
const REFUSED: Record<KeyRefusal, [ErrorCode, string]> = {
  malformed: ['UNAUTHORIZED', 'the API key is malformed or its checksum does not match: keys look like ear_live_… or ear_test_…'],
  unknown: ['UNAUTHORIZED', 'the API key is not known'],
  revoked: ['UNAUTHORIZED', 'the API key has been revoked'],
  expired: ['UNAUTHORIZED', 'the API key has expired'],
  rotated: ['UNAUTHORIZED', 'the API key was rotated and its overlap has ended: use the new key'],
  suspended: ['FORBIDDEN', 'the tenant of this API key is suspended'],
};

/**
 * Authentication enforced from each route's declared policy, for every
 * service on the app: the operator's admin token, or an API key (checksum,
 * lookup, revocation, expiry, rotation, tenant suspension), then the
 * deployment's environments, the key's IP allowlist (against the address
 * the trusted proxies vouch for, never a raw X-Forwarded-For) and the
 * route's scope. Each accepted request counts toward the key's usage.
 * Routes without a policy (health) pass.
 */
export function registerAuthHook(app: FastifyInstance, deps: AuthDependencies): void {
  const environments = deps.environments ?? KEY_ENVIRONMENTS;
  app.decorateRequest('caller', null);
  app.addHook('onClose', async () => {
    await deps.keys
      .close()
      .catch((error: unknown) => console.error(`[auth] last usage flush failed: ${error instanceof Error ? error.message : String(error)}`));
  });
  app.addHook('onRequest', async (request) => {
    request.arrivedAt = deps.now();
    const policy = request.routeOptions.config.policy;
    if (!policy) return;
    const presented = bearer(request);
    if (policy.auth === 'admin') {
      if (!deps.adminToken) throw new ApiError('UNAUTHORIZED', 'the operator API is disabled: EARSHOT_ADMIN_TOKEN is not set');
      if (!presented || !sameSecret(presented, deps.adminToken))
        throw new ApiError('UNAUTHORIZED', 'a valid operator token is required: Authorization: Bearer $EARSHOT_ADMIN_TOKEN');
      return;
    }
    if (!presented) throw new ApiError('UNAUTHORIZED', 'an API key is required: Authorization: Bearer ear_live_… or ear_test_…');
    const found = await identify(deps.keys, presented, request.arrivedAt);
    if (!found.ok) throw new ApiError(...REFUSED[found.reason]);
    const caller = found.key;
    if (!environments.includes(caller.environment))
      throw new ApiError('FORBIDDEN', `this deployment accepts ${environments.join(' and ')} keys only; this is a ${caller.environment} key`);
    if (!allowsAddress(caller.ipAllowlist, request.ip)) throw new ApiError('FORBIDDEN', `the API key may not be used from ${request.ip}`);
    const scopes = scopesOf(policy);
    if (!scopes.some((scope) => caller.scopes.includes(scope))) throw new ApiError('FORBIDDEN', `the API key lacks the ${scopes.join(' or ')} scope`);
    request.caller = caller;
    deps.keys.recordUse(caller, request.arrivedAt);
  });
}

/** A key store that cannot answer is an outage (503, retry), not the caller's fault nor a bug. */
async function identify(keys: ApiKeyCache, presented: string, at: Date): Promise<KeyLookup> {
  try {
    return await keys.identify(presented, at);
  } catch (error) {
    console.error(`[auth] key lookup failed: ${error instanceof Error ? error.message : String(error)}`);
    throw new ApiError('UNAVAILABLE', 'the key store is unavailable; retry later');
  }
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
