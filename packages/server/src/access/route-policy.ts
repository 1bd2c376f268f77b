import type { AuthenticatedKey, Scope } from '@earshot/auth';
import type { FastifyRequest } from 'fastify';

/** A per-minute limit a route declares beyond the one every key has; the platform enforces it. */
export interface RouteRateLimit {
  /** Names the counter, e.g. `ingest-requests`. */
  name: string;
  per: 'tenant' | 'key';
  /** Per minute. */
  limit: number;
  /** What one request uses of the limit; 1 when absent (the ingest counts the envelopes in its body). */
  cost?: (request: FastifyRequest) => number;
}

/** Where a signed route's HMAC travels: the timestamp and signature headers over the raw body (the tenant's webhook secret). */
export interface SignaturePolicy {
  timestampHeader: string;
  signatureHeader: string;
}

/**
 * What a route requires, declared in its options and enforced once by the
 * platform (`apiScope`), never in handlers: nothing (`public`), the
 * operator's token, or an API key holding `scope`. Every key-authenticated
 * route also counts against the key's request limit; `rateLimits` adds
 * others, and `signature` asks for the body to be signed. A route serving
 * several resources (GraphQL) names several scopes: a key holding one gets in.
 */
export type RoutePolicy =
  | { auth: 'public' }
  | { auth: 'admin' }
  | { auth: 'apiKey'; scope: Scope | readonly Scope[]; rateLimits?: readonly RouteRateLimit[]; signature?: SignaturePolicy };

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
