import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { AuthenticatedKey, KeyLookup, KeyRefusal } from '@earshot/auth';
import { ApiError, type ErrorCode, type KeyEnvironment } from '@earshot/contracts';
import type { Logger, Metrics } from '@earshot/telemetry';
import { allowsAddress } from './ip-allowlist';
import { bearer, header } from './request-headers';
import { checkSignature } from './request-signature';
import { sameSecret } from './same-secret';
import { scopesOf, type RoutePolicy, type RouteRateLimit } from './route-policy';
import type { Access } from './runtime-access';

export interface ApiScopeOptions {
  access: Access;
  adminToken: string | undefined;
  /** The key environments this deployment accepts (EARSHOT_KEY_ENVIRONMENTS). */
  environments: readonly KeyEnvironment[];
  /** Every key's own request limit per minute (EARSHOT_KEY_REQUESTS_PER_MIN). */
  keyRequestsPerMinute: number;
  now: () => Date;
  /** Counts the requests a rate limit refused. */
  metrics?: Metrics;
}

/** Paths whose every route must declare a policy: a route there without one fails at registration, never opens a door. */
const GUARDED_PREFIXES = ['/api/', '/graphql'];
/** A browser cannot set headers on a WebSocket: its key rides as the subprotocol `bearer.<key>`. */
const KEY_PROTOCOL = 'bearer.';

/** Who-are-you failures are 401 with what was wrong with the key; a suspended tenant, like other not-allowed failures, is 403. */
const REFUSED: Record<KeyRefusal, [ErrorCode, string]> = {
  malformed: ['UNAUTHORIZED', 'the API key is malformed or its checksum does not match: keys look like ear_live_… or ear_test_…'],
  unknown: ['UNAUTHORIZED', 'the API key is not known'],
  revoked: ['UNAUTHORIZED', 'the API key has been revoked'],
  expired: ['UNAUTHORIZED', 'the API key has expired'],
  rotated: ['UNAUTHORIZED', 'the API key was rotated and its overlap has ended: use the new key'],
  suspended: ['FORBIDDEN', 'the tenant of this API key is suspended'],
};

type BindableLogger = FastifyBaseLogger & Pick<Logger, 'setBindings'>;
const bindable = (log: FastifyBaseLogger): log is BindableLogger => typeof (log as Partial<BindableLogger>).setBindings === 'function';

/**
 * From here on every entry the request logs says whose it is. Pino's request logger (each request's own child) takes the
 * tenant in place: a child of it cost ~10 µs a request, 3% of a single-event ingest. An app built without a logger has
 * Fastify's null logger, which logs nothing and binds nothing.
 */
function bindTenant(request: FastifyRequest, tenantId: string): void {
  if (bindable(request.log)) request.log.setBindings({ tenantId });
}

/**
 * The one place access is enforced, for every route of every service on the
 * app, from the policy the route declares: the operator's token, or an API
 * key (checksum, lookup, revocation, expiry, rotation, tenant suspension),
 * then the deployment's environments, the key's IP allowlist (against the
 * address the trusted proxies vouch for), the route's scope, the body's
 * signature where the route asks for one, and the rate limits: the key's own
 * and the route's. Every authenticated answer carries the RateLimit headers.
 */
export const apiScope = fastifyPlugin<ApiScopeOptions>(
  (app: FastifyInstance, options: ApiScopeOptions, done: (error?: Error) => void) => {
    const { access } = options;
    app.decorateRequest('caller', null);
    // Checked once every plugin has had its say (GraphQL's sets its policy in an onRoute hook of its own).
    const guarded: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      if (GUARDED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) guarded.push(route);
    });
    app.addHook('onReady', async () => {
      const open = guarded.filter((route) => !route.config?.policy).map((route) => `${String(route.method)} ${route.url}`);
      if (open.length > 0) throw new Error(`${open.join(', ')} declare no access policy: say { auth: 'public' } where none is needed`);
    });
    app.addHook('onRequest', async (request) => {
      request.arrivedAt = options.now();
      const policy = request.routeOptions.config.policy;
      if (!policy || policy.auth === 'public') return;
      const presented = bearer(request) ?? subprotocolKey(request);
      if (policy.auth === 'admin') return admitOperator(presented, options.adminToken);
      const caller = await admitKey(request, presented, policy, options);
      request.caller = caller;
      bindTenant(request, caller.tenant.id);
    });
    // Before schema validation, so a refused body still answers with the RateLimit headers; after parsing, for the signature.
    app.addHook('preValidation', async (request, reply) => {
      const policy = request.routeOptions.config.policy;
      const caller = request.caller;
      if (policy?.auth !== 'apiKey' || !caller) return;
      if (policy.signature) await checkSignature(request, caller, policy.signature, access.keys);
      const own: RouteRateLimit = { name: 'requests', per: 'key', limit: options.keyRequestsPerMinute };
      const decision = await access.limiter.take(
        [...(policy.rateLimits ?? []), own].map((rule) => ({
          bucket: rule.per === 'tenant' ? `tenant:${caller.tenant.id}:${rule.name}` : `key:${caller.keyId}:${rule.name}`,
          limit: rule.limit,
          cost: rule.cost ? rule.cost(request) : 1,
        })),
      );
      const headers = {
        'ratelimit-limit': String(decision.limit),
        'ratelimit-remaining': String(decision.remaining),
        'ratelimit-reset': String(decision.resetSeconds),
      };
      if (!decision.allowed) {
        options.metrics?.rateLimitRefusals.inc({ route: request.routeOptions.url ?? request.url });
        throw new ApiError('RATE_LIMITED', `rate limit of ${decision.limit} per minute reached; retry after ${decision.resetSeconds} s`, {
          headers: { ...headers, 'retry-after': String(decision.resetSeconds) },
        });
      }
      reply.headers(headers);
    });
    done();
  },
  { name: 'earshot-api-scope' },
);

function subprotocolKey(request: FastifyRequest): string | undefined {
  const offered = (header(request, 'sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  return offered.find((p) => p.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length);
}

function admitOperator(presented: string | undefined, adminToken: string | undefined): void {
  if (!adminToken) throw new ApiError('UNAUTHORIZED', 'the operator API is disabled: EARSHOT_ADMIN_TOKEN is not set');
  if (!presented || !sameSecret(presented, adminToken))
    throw new ApiError('UNAUTHORIZED', 'a valid operator token is required: Authorization: Bearer $EARSHOT_ADMIN_TOKEN');
}

async function admitKey(
  request: FastifyRequest,
  presented: string | undefined,
  policy: Extract<RoutePolicy, { auth: 'apiKey' }>,
  options: ApiScopeOptions,
): Promise<AuthenticatedKey> {
  if (!presented) throw new ApiError('UNAUTHORIZED', 'an API key is required: Authorization: Bearer ear_live_… or ear_test_…');
  const found = await identify(options.access, presented, request.arrivedAt);
  if (!found.ok) throw new ApiError(...REFUSED[found.reason]);
  const caller = found.key;
  if (!options.environments.includes(caller.environment)) {
    throw new ApiError('FORBIDDEN', `this deployment accepts ${options.environments.join(' and ')} keys only; this is a ${caller.environment} key`);
  }
  if (!allowsAddress(caller.ipAllowlist, request.ip)) throw new ApiError('FORBIDDEN', `the API key may not be used from ${request.ip}`);
  const scopes = scopesOf(policy);
  if (!scopes.some((scope) => caller.scopes.includes(scope))) throw new ApiError('FORBIDDEN', `the API key lacks the ${scopes.join(' or ')} scope`);
  options.access.keys.recordUse(caller, request.arrivedAt);
  return caller;
}

/** A key store that cannot answer is an outage (503, retry), not the caller's fault nor a bug. */
async function identify(access: Access, presented: string, at: Date): Promise<KeyLookup> {
  try {
    return await access.keys.identify(presented, at);
  } catch (error) {
    throw new ApiError('UNAVAILABLE', 'the key store is unavailable; retry later', { cause: error });
  }
}
