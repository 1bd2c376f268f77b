import type { FastifyInstance } from 'fastify';
import { ApiError } from '@earshot/contracts';
import type { RateLimiter } from '@earshot/rate-limit';

/**
 * The one hook that enforces the limits routes declare. It runs before the
 * handler, after authentication (and the gateway's signature check), so
 * forged requests cannot spend a tenant's allowance. Every answer carries
 * the RateLimit headers.
 */
export function registerRateLimitHook(app: FastifyInstance, limiter: RateLimiter): void {
  app.addHook('preHandler', async (request, reply) => {
    const policy = request.routeOptions.config.policy;
    if (policy?.auth !== 'apiKey' || !request.caller || policy.rateLimits.length === 0) return;
    const caller = request.caller;
    const decision = await limiter.take(
      policy.rateLimits.map((rule) => ({
        bucket: rule.per === 'tenant' ? `tenant:${caller.tenant.id}:${rule.name}` : `key:${caller.keyId}:${rule.name}`,
        limit: rule.limit,
        cost: rule.cost ? rule.cost(request) : 1,
      })),
    );
    const headers: Record<string, string> = {
      'ratelimit-limit': String(decision.limit),
      'ratelimit-remaining': String(decision.remaining),
      'ratelimit-reset': String(decision.resetSeconds),
    };
    if (decision.allowed) {
      reply.headers(headers);
      return;
    }
    throw new ApiError('RATE_LIMITED', `rate limit of ${decision.limit} per minute reached; retry after ${decision.resetSeconds} s`, {
      headers: { ...headers, 'retry-after': String(decision.resetSeconds) },
    });
  });
}
