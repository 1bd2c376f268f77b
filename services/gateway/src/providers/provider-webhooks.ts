import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ProviderWebhookParamsSchema, type ProviderDeliveryAnswer } from '@earshot/contracts';
import type { EnvelopeOutcome, Intake, Sender } from '@earshot/intake';
import { ConnectionCache, publicOrigin, type DeliveryConnection } from '@earshot/provider-connections';
import { deliveryKeyOf, PROVIDER_ADAPTERS, type DeliveryRequest, type Mapping, type Verifier } from '@earshot/providers';
import { receivedBody, type Access } from '@earshot/server';
import { failure } from '../routes/ingest';

/** An ElevenLabs post_call_audio carries the call's MP3 in base64: far over the 1 MB of other routes. */
const PROVIDER_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

export interface ProviderWebhookDependencies {
  intake: Intake;
  access: Access;
  connections: ConnectionCache;
  publicUrl: string | undefined;
  /** The tenant's ingest limits, which provider deliveries share with signed envelopes. */
  limits: { requestsPerMinute: number; eventsPerMinute: number };
}

const verifiers = new WeakMap<DeliveryConnection, Verifier>();

function verifierOf(connection: DeliveryConnection): Verifier {
  let verifier = verifiers.get(connection);
  if (!verifier) {
    verifier = PROVIDER_ADAPTERS[connection.provider].verifier(connection.credentials);
    verifiers.set(connection, verifier);
  }
  return verifier;
}

function deliveryOf(request: FastifyRequest, publicUrl: string | undefined): DeliveryRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
  return {
    method: request.method,
    url: `${publicOrigin(publicUrl, request)}${request.url}`,
    headers,
    body: receivedBody(request.body).raw,
    receivedAt: request.arrivedAt,
  };
}

/** A store we depend on failed: nothing was accepted, so the provider may retry. */
async function available<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new ApiError('UNAVAILABLE', 'the connection store is unavailable; nothing was accepted, retry later', { cause: error });
  }
}

/**
 * POST /api/v1/webhooks/providers/{provider}/{connectionId}: a voice
 * provider's own webhook, as it sends it. No Earshot key: the connection id
 * names the tenant and the credentials, and the provider's signature, checked
 * the provider's way, proves the sender. The delivery becomes events through
 * the provider's mapping and the one intake (validation, 72-hour idempotency
 * on the events' keys, the log); an event type with no mapping is kept as a
 * dead letter. Every verified delivery is answered 200, duplicates included,
 * as the providers expect (Retell and Vapi retry anything else; ElevenLabs
 * disables a webhook that fails).
 */
export function registerProviderWebhookRoute(app: FastifyInstance, deps: ProviderWebhookDependencies): void {
  const { intake, connections } = deps;

  app.post(
    '/api/v1/webhooks/providers/:provider/:connectionId',
    { config: { policy: { auth: 'public' } }, bodyLimit: PROVIDER_BODY_LIMIT_BYTES },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const params = ProviderWebhookParamsSchema.safeParse(request.params);
      if (!params.success) throw new ApiError('NOT_FOUND', 'no provider connection at this URL: use the webhookUrl POST /api/v1/providers answered');
      const { provider, connectionId } = params.data;
      let connection = await available(connections.find(connectionId, request.arrivedAt));
      if (!connection || connection.provider !== provider) throw new ApiError('NOT_FOUND', `no ${provider} connection ${connectionId}`);
      request.deliverySender = { tenant: connection.tenantId, provider };
      const delivery = deliveryOf(request, deps.publicUrl);
      let verification = verifierOf(connection)(delivery);
      if (!verification.ok) {
        // The credentials may have been rotated since the connection was kept: look again before refusing.
        const fresh = await available(connections.refresh(connectionId, request.arrivedAt));
        if (fresh && fresh.provider === provider) {
          connection = fresh;
          verification = verifierOf(fresh)(delivery);
        }
      }
      if (!verification.ok) throw new ApiError('UNAUTHORIZED', verification.reason);
      if (!connection.active)
        throw new ApiError(
          'FORBIDDEN',
          `connection ${connectionId} is disabled, or its tenant suspended: enable it (POST /api/v1/providers/{id}/enable) to take deliveries`,
        );

      const adapter = PROVIDER_ADAPTERS[provider];
      const sender: Sender = { tenantId: connection.tenantId, provider, receivedAt: request.arrivedAt };
      const parsed = adapter.parse(delivery);
      const mapping: Mapping = parsed.ok
        ? adapter.map(parsed.payload, {
            tenantId: connection.tenantId,
            connection: { id: connection.id, name: connection.name, mapping: connection.mapping },
            deliveryKey: deliveryKeyOf(verification.deliveryId, delivery.body),
            signedAt: verification.signedAt,
            receivedAt: request.arrivedAt,
          })
        : { kind: 'invalid', eventName: null, reason: parsed.reason, fields: [{ path: '(body)', message: parsed.reason }] };
      const envelopes = mapping.kind === 'events' || mapping.kind === 'envelopes' ? mapping.envelopes : [];
      await takeLimits(deps, connection.tenantId, Math.max(1, envelopes.length), reply);

      if (mapping.kind === 'invalid' || mapping.kind === 'unknown') {
        const fields = mapping.kind === 'invalid' ? mapping.fields : [{ path: '(body)', message: mapping.reason }];
        const kept = await intake.rejectBody(sender, delivery.body, `${provider}: ${mapping.reason}`, fields);
        request.deliveryNotes = [{ ...kept.note, eventType: mapping.eventName }];
        // The provider did nothing wrong in sending an event we do not map: it is kept and acknowledged.
        if (mapping.kind === 'invalid') throw failure(kept.result);
        const answer: ProviderDeliveryAnswer = { ok: true, events: [], duplicate: false, deadLetterId: kept.result.deadLetterId, reason: mapping.reason };
        return reply.status(200).send(answer);
      }
      const outcomes: EnvelopeOutcome[] = await intake.accept(
        sender,
        envelopes.map((envelope, index) => ({
          value: envelope,
          raw: Buffer.from(JSON.stringify(envelope)),
          label: `event ${index} of the ${provider} delivery`,
        })),
      );
      request.deliveryNotes = outcomes.map((o) => o.note);
      const duplicate = outcomes.length > 0 && outcomes.every((o) => o.result.ok && o.result.duplicate);
      const answer: ProviderDeliveryAnswer = { ok: true, events: outcomes.map((o) => o.result), duplicate, deadLetterId: null, reason: null };
      return reply.status(200).send(answer);
    },
  );
}

/** The tenant's ingest limits: one request, and an event for each the delivery became. */
async function takeLimits(deps: ProviderWebhookDependencies, tenantId: string, events: number, reply: FastifyReply): Promise<void> {
  const decision = await deps.access.limiter.take([
    { bucket: `tenant:${tenantId}:ingest-requests`, limit: deps.limits.requestsPerMinute, cost: 1 },
    { bucket: `tenant:${tenantId}:ingest-events`, limit: deps.limits.eventsPerMinute, cost: events },
  ]);
  const headers = {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) {
    throw new ApiError('RATE_LIMITED', `rate limit of ${decision.limit} per minute reached; retry after ${decision.resetSeconds} s`, {
      headers: { ...headers, 'retry-after': String(decision.resetSeconds) },
    });
  }
  reply.headers(headers);
}
