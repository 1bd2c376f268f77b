import type { RoutePolicy, SignaturePolicy } from '@earshot/server';
import type { DeliveryNote } from '@earshot/intake';

/** A signed webhook route's policy: the tenant's ingest limits (besides every key's own) and where its signature travels. */
export type WebhookPolicy = Extract<RoutePolicy, { auth: 'apiKey' }> & { signature: SignaturePolicy };

declare module 'fastify' {
  interface FastifyRequest {
    /** What the delivery audit records for this request, one note per envelope. */
    deliveryNotes: DeliveryNote[] | null;
    /** The message of the error answered, for the delivery audit. */
    failure: string | null;
    /** Whose delivery it is when no API key says so: a provider's request names its connection, whose tenant this is. */
    deliverySender: { tenant: string; provider: string } | null;
    /** The HTTP status a failure stands for where the answer's own says nothing (gRPC answers 200, the outcome in its trailers). */
    answeredAs: number | null;
  }
}
