import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError, CURRENT_EVENT_VERSION, fieldIssues, INGEST_HEADERS, WEBHOOK_EVENT_HEADERS, WebhookEventSchema } from '@earshot/contracts';
import type { EnvelopeOutcome, Intake, Sender } from '@earshot/intake';
import { header, isJsonMediaType, receivedBody, unsupportedMediaType } from '@earshot/server';
import type { WebhookPolicy } from '../route-policy';
import { failure } from './ingest';

/**
 * POST /api/v1/webhooks/events: the flat event mapped to a canonical
 * envelope and taken in like any other. Unlike the ingest endpoint, a
 * repeated Idempotency-Key is refused with 409; without one, every request
 * is a new event.
 */
export function registerWebhookEventsRoute(app: FastifyInstance, intake: Intake, policy: WebhookPolicy, now: () => Date): void {
  app.post('/api/v1/webhooks/events', { config: { policy } }, async (request, reply) => {
    const body = receivedBody(request.body);
    const contentType = header(request, 'content-type');
    if (body.raw.length > 0 && !isJsonMediaType(contentType)) throw unsupportedMediaType(contentType);
    const caller = request.caller as NonNullable<typeof request.caller>;
    const sender: Sender = { tenantId: caller.tenant.id, provider: header(request, INGEST_HEADERS.provider) ?? 'custom', receivedAt: now() };
    const parsed = body.json.ok ? WebhookEventSchema.safeParse(body.json.value) : undefined;
    if (!parsed?.success) {
      const fields = parsed ? fieldIssues(parsed.error) : [{ path: '(body)', message: body.json.ok ? 'invalid' : body.json.error }];
      const reason = parsed ? `event is invalid: ${fields.map((f) => f.path).join(', ')}` : 'the body is not JSON';
      const outcome = await intake.rejectBody(sender, body.raw, reason, fields);
      request.deliveryNotes = [outcome.note];
      throw failure(outcome.result);
    }
    const event = parsed.data;
    const idempotencyKey = header(request, WEBHOOK_EVENT_HEADERS.idempotencyKey) ?? randomUUID();
    const envelope = {
      type: event.type,
      version: CURRENT_EVENT_VERSION,
      idempotency_key: idempotencyKey,
      occurred_at: sender.receivedAt.toISOString(),
      call: { provider_call_id: event.provider_call_id, agent_id: event.agent_id },
      data: { latency_ms: event.latency_ms },
    };
    const [outcome] = await intake.accept(sender, [{ value: envelope, raw: body.raw }]);
    const only = outcome as EnvelopeOutcome;
    request.deliveryNotes = [only.note];
    if (!only.result.ok) throw failure(only.result);
    if (only.result.duplicate) {
      throw new ApiError('IDEMPOTENCY_CONFLICT', `Idempotency-Key ${idempotencyKey} was already used; the event was accepted as ${only.result.id}`);
    }
    return reply.status(200).send({ ok: true, id: only.result.id });
  });
}
