import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { storableText, type Delivery, type DeliveryOutcome } from '@earshot/contracts';
import type { DeliveryRecorder } from './delivery-recorder';
import { header } from '@earshot/server';

/** How much of a sender's text a delivery record keeps in one field. */
const NOTED_CHARS = 500;

/**
 * Records every delivery of a tenant (accepted, duplicate, rejected,
 * dead-lettered, rate-limited) once its answer is sent. A request whose key
 * (or, from a provider, whose connection) named no tenant has no one to
 * attribute it to and is not recorded.
 */
export function registerDeliveryHooks(app: FastifyInstance, recorder: DeliveryRecorder, providerHeader: string): void {
  app.decorateRequest('deliveryNotes', null);
  app.decorateRequest('failure', null);
  app.decorateRequest('deliverySender', null);
  app.decorateRequest('answeredAs', null);
  app.addHook('onError', async (request, _reply, error) => {
    request.failure = error.message;
  });

  app.addHook('onResponse', async (request, reply) => {
    const policy = request.routeOptions.config.policy;
    const keyed = policy?.auth === 'apiKey' && request.caller ? { tenant: request.caller.tenant.id, provider: header(request, providerHeader) ?? null } : null;
    const sender = request.deliverySender ?? keyed;
    if (!sender) return;
    const status = request.answeredAs ?? reply.statusCode;
    const notes = request.deliveryNotes ?? [{ outcome: outcomeOf(status), eventType: null, idempotencyKey: null, eventId: null, reason: request.failure }];
    const time = request.arrivedAt.toISOString();
    const provider = sender.provider === null ? null : storableText(sender.provider, NOTED_CHARS);
    const duration = Math.round(reply.elapsedTime);
    recorder.record(
      // A literal per record rather than a spread of shared fields: a batch of 500 makes 500 of them.
      notes.map((note): Delivery => ({
        id: randomUUID(),
        time,
        tenant: sender.tenant,
        provider,
        event_type: note.eventType,
        idempotency_key: note.idempotencyKey,
        outcome: note.outcome,
        event_id: note.eventId,
        http_status: status,
        duration_ms: duration,
        // An error's message may quote what the sender sent; the audit stores it in PostgreSQL.
        reason: note.reason === null ? null : storableText(note.reason, 4 * NOTED_CHARS),
      })),
    );
  });
}

function outcomeOf(status: number): DeliveryOutcome {
  return status === 429 ? 'rate_limited' : 'rejected';
}
