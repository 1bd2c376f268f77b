import type { AuthenticatedKey, Scope } from '@earshot/auth';
import type { DeliveryNote } from './intake';
import { receiveBody, type ReceivedBody } from './received-body';

/** A limit a route declares; the one rate-limit hook enforces it. */
export interface RouteRateLimit {
  /** Names the counter, e.g. `ingest-requests`. */
  name: string;
  per: 'tenant' | 'key';
  /** Per minute. */
  limit: number;
  /** Requests count 1 each; events count the envelopes in the body. */
  counts: 'requests' | 'events';
}

export interface SignaturePolicy {
  timestampHeader: string;
  signatureHeader: string;
}

/** What a gateway route requires, declared in its options and enforced by the gateway's hooks, never in handlers. */
export type RoutePolicy =
  | { auth: 'admin' }
  | { auth: 'apiKey'; scope: Scope; signature: SignaturePolicy; rateLimits: readonly RouteRateLimit[] };

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
  }
  interface FastifyRequest {
    /** The API key the request authenticated with, and its tenant. */
    caller: AuthenticatedKey | null;
    /** When the request arrived, on the injected clock. */
    arrivedAt: Date;
    /** What the delivery audit records for this request, one note per envelope. */
    deliveryNotes: DeliveryNote[] | null;
    /** The message of the error answered, for the delivery audit. */
    failure: string | null;
  }
}

/** The body the gateway's raw-body parser kept; a request without a body has zero bytes. */
export function receivedBody(body: unknown): ReceivedBody {
  if (body === undefined || body === null) return receiveBody(Buffer.alloc(0));
  if (typeof body === 'object' && 'raw' in body && 'json' in body) return body as ReceivedBody;
  throw new Error('the gateway raw-body parser did not run for this route');
}
