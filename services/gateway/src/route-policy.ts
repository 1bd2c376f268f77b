import type { RoutePolicy } from '@earshot/server';
import type { DeliveryNote } from './intake';
import { receiveBody, type ReceivedBody } from './received-body';

export interface SignaturePolicy {
  timestampHeader: string;
  signatureHeader: string;
}

/** A webhook route's policy: the shared API-key policy (scope, limits), and the headers its HMAC signature travels in. */
export interface WebhookPolicy {
  access: Extract<RoutePolicy, { auth: 'apiKey' }>;
  signature: SignaturePolicy;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on signed webhook routes; the signature hook verifies it. */
    signature?: SignaturePolicy;
  }
  interface FastifyRequest {
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
