import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Delivery, DeliveryOutcome } from '@earshot/contracts';
import type { DeliveryRecorder } from './delivery-recorder';
import { header } from '@earshot/server';

/**
 * Records every delivery of a tenant (accepted, duplicate, rejected,
 * dead-lettered, rate-limited) once its answer is sent. A request whose key
 * (or, from a provider, whose connection) named no tenant has no one to
 * attribute it to and is not recorded.
 */
export function registerDeliveryHooks(app: FastifyInstance, recorder: DeliveryRecorder, providerHeader: string): void {
  app.addHook('onError', async (request, _reply, error) => {
    request.failure = error.message;
  });

  app.addHook('onResponse', async (request, reply) => {
    const policy = request.routeOptions.config.policy;
    const keyed = policy?.auth === 'apiKey' && request.caller ? { tenant: request.caller.tenant.id, provider: header(request, providerHeader) ?? null } : null;
    const sender = request.deliverySender ?? keyed;
    if (!sender) return;
    const notes = request.deliveryNotes ?? [
      { outcome: outcomeOf(reply.statusCode), eventType: null, idempotencyKey: null, eventId: null, reason: request.failure },
    ];
    const base = {
      time: request.arrivedAt.toISOString(),
      tenant: sender.tenant,
      provider: sender.provider,
      http_status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime),
    };
    recorder.record(
      notes.map((note): Delivery => ({
        ...base,
        id: randomUUID(),
        event_type: note.eventType,
        idempotency_key: note.idempotencyKey,
        outcome: note.outcome,
        event_id: note.eventId,
        reason: note.reason,
      })),
    );
  });
}

function outcomeOf(status: number): DeliveryOutcome {
  return status === 429 ? 'rate_limited' : 'rejected';
}
