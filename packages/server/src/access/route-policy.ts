import type { AuthenticatedKey, Scope } from '@earshot/auth';
import type { FastifyRequest } from 'fastify';

/** A per-minute limit a route declares; the one rate-limit hook enforces it. */
export interface RouteRateLimit {
  /** Names the counter, e.g. `ingest-requests`. */
  name: string;
  per: 'tenant' | 'key';
  /** Per minute. */
  limit: number;
  /** What one request uses of the limit; 1 when absent (the ingest counts the envelopes in its body). */
  cost?: (request: FastifyRequest) => number;
}

/**
 * What a route requires, declared in its options and enforced by one hook,
 * never in handlers: the operator's token, or an API key holding `scope`.
 * A route without a policy is public (`/health`). A route serving several
 * resources (GraphQL) names several scopes: a key holding one of them gets in.
 */
export type RoutePolicy = { auth: 'admin' } | { auth: 'apiKey'; scope: Scope | readonly Scope[]; rateLimits: readonly RouteRateLimit[] };

/** The scopes a policy accepts, any one of which lets the key in (GraphQL's fields then check their own). */
export function scopesOf(policy: { scope: Scope | readonly Scope[] }): readonly Scope[] {
  return typeof policy.scope === 'string' ? [policy.scope] : policy.scope;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
  }
  interface FastifyRequest {
    /** The API key the request authenticated with, and its tenant. */
    caller: AuthenticatedKey | null;
    /** When the request arrived, on the injected clock. */
    arrivedAt: Date;
  }
}
