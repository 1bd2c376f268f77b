import type { EventMapping, FieldIssue, ProviderName } from '@earshot/contracts';
import type { ProviderEnvelope } from './envelopes';

/** A provider's request as it arrived: what its signature covers. */
export interface DeliveryRequest {
  method: string;
  /** The URL the provider addressed (Twilio signs it): the public origin, the path and the query as received. */
  url: string;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string | undefined>>;
  body: Buffer;
  receivedAt: Date;
}

/**
 * A verified delivery names its own id where the provider sends one
 * (webhook-id, I-Twilio-Idempotency-Token), and when it was signed where the
 * signature says.
 */
export type Verification = { ok: true; deliveryId: string | null; signedAt: Date | null } | { ok: false; reason: string };

/** Checks a request against a connection's credentials (two while a rotation overlaps). */
export type Verifier = (request: DeliveryRequest) => Verification;

export type ParsedBody = { ok: true; payload: unknown } | { ok: false; reason: string };

/** What the mapping knows besides the payload: whose connection, which delivery, when. */
export interface MappingContext {
  tenantId: string;
  connection: { id: string; name: string; mapping: EventMapping | null };
  /** The provider's delivery id, or the SHA-256 of the body: the key of what has no id of its own. */
  deliveryKey: string;
  /** When the provider signed the delivery, where its signature says (Standard Webhooks: webhook-timestamp). */
  signedAt: Date | null;
  receivedAt: Date;
}

/**
 * What a delivery becomes: events, or a reason to keep it whole as a dead
 * letter: an event type we do not map (the provider did nothing wrong), or a
 * payload that does not fit the provider's documented schema.
 */
export type Mapping =
  | { kind: 'events'; eventName: string; envelopes: ProviderEnvelope[] }
  /** The sender's own envelopes (Standard Webhooks), as it sent them: the intake validates them like any other. */
  | { kind: 'envelopes'; eventName: string; envelopes: unknown[] }
  | { kind: 'unknown'; eventName: string | null; reason: string }
  | { kind: 'invalid'; eventName: string | null; reason: string; fields: FieldIssue[] };

/** One provider's way in: its signature, its body format and its mapping to our events. */
export interface ProviderAdapter<P extends ProviderName> {
  provider: P;
  verifier(credentials: readonly unknown[]): Verifier;
  parse(request: DeliveryRequest): ParsedBody;
  map(payload: unknown, context: MappingContext): Mapping;
}
