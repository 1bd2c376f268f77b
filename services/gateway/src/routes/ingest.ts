import type { FastifyInstance } from 'fastify';
import { ApiError, INGEST_HEADERS, MAX_BATCH } from '@earshot/contracts';
import { ACCEPTED_STATUS, type EnvelopeOutcome, type EnvelopeResult, type Intake, type Sender } from '@earshot/intake';
import { batchItemBytes, header, isJsonMediaType, receivedBody, unsupportedMediaType } from '@earshot/server';
import type { WebhookPolicy } from '../route-policy';

const PROVIDER_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * POST /api/v1/webhooks/ingest: one envelope, or a JSON array of up to 500,
 * each validated, deduplicated and appended on its own. Answers only once
 * the log holds everything it acknowledges.
 */
export function registerIngestRoute(app: FastifyInstance, intake: Intake, policy: WebhookPolicy, now: () => Date): void {
  app.post('/api/v1/webhooks/ingest', { config: { policy } }, async (request, reply) => {
    const body = receivedBody(request.body);
    const contentType = header(request, 'content-type');
    if (body.raw.length > 0 && !isJsonMediaType(contentType)) throw unsupportedMediaType(contentType);
    const caller = request.caller as NonNullable<typeof request.caller>;
    const provider = header(request, INGEST_HEADERS.provider);
    const sender: Sender = { tenantId: caller.tenant.id, provider: provider ?? 'unknown', receivedAt: now() };
    const reject = async (reason: string, path: string): Promise<never> => {
      const outcome = await intake.rejectBody(sender, body.raw, reason, [{ path, message: reason }]);
      request.deliveryNotes = [outcome.note];
      throw failure(outcome.result);
    };

    if (!provider || !PROVIDER_PATTERN.test(provider))
      return reject(`the ${INGEST_HEADERS.provider} header must name the sending provider (letters, digits, . _ -)`, INGEST_HEADERS.provider);
    if (!body.json.ok) return reject(`the body is not JSON: ${body.json.error}`, '(body)');
    const value = body.json.value;

    if (!Array.isArray(value)) {
      const [outcome] = await intake.accept(sender, [{ value, raw: body.raw }]);
      const only = outcome as EnvelopeOutcome;
      request.deliveryNotes = [only.note];
      if (!only.result.ok) throw failure(only.result);
      return reply.status(only.status).send(only.result);
    }
    if (value.length === 0 || value.length > MAX_BATCH) return reject(`a batch holds 1 to ${MAX_BATCH} envelopes; this one holds ${value.length}`, '(body)');
    const bytes = batchItemBytes(body);
    const outcomes = await intake.accept(
      sender,
      (value as unknown[]).map((item, index) => ({ value: item, raw: bytes[index] ?? Buffer.alloc(0), label: `envelope ${index} of the batch` })),
    );
    request.deliveryNotes = outcomes.map((o) => o.note);
    return reply.status(ACCEPTED_STATUS).send({ ok: true, results: outcomes.map((o) => o.result) });
  });
}

export function failure(result: Exclude<EnvelopeResult, { ok: true }>): ApiError {
  return result.code === 'VALIDATION_ERROR'
    ? new ApiError('VALIDATION_ERROR', result.error, { fields: result.fields, deadLetterId: result.deadLetterId })
    : new ApiError('IDEMPOTENCY_CONFLICT', result.error);
}
