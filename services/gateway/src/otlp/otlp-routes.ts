import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '@earshot/contracts';
import type { Intake } from '@earshot/intake';
import {
  exportAnswer,
  failureAnswer,
  OTLP_CONTENT_TYPES,
  readMetricsRequest,
  readTraceRequest,
  type ExportMetricsServiceRequest,
  type ExportTraceServiceRequest,
  type OtlpBodyResult,
  type OtlpEncoding,
} from '@earshot/otlp';
import { header, type RoutePolicy } from '@earshot/server';
import { acceptSpans } from './otlp-spans';
import { deadLetterBody } from './otlp-dead-letter';

/** Exporters batch up to 512 spans, and LiveKit's carry the chat context: more room than the JSON ingest's 1 MiB. */
const OTLP_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** What the content-type parser leaves for the handler: the request decoded, or why it could not be, with the bytes for the dead letter. */
interface ParsedOtlp<T> {
  encoding: OtlpEncoding;
  raw: Buffer;
  result: OtlpBodyResult<T>;
}

type Signal = 'traces' | 'metrics';
export type OtlpPolicy = Extract<RoutePolicy, { auth: 'apiKey' }>;

function encodingOf(request: FastifyRequest): OtlpEncoding | undefined {
  const type = (header(request, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return OTLP_CONTENT_TYPES[type];
}

function parsed<T>(request: FastifyRequest): ParsedOtlp<T> {
  return request.body as ParsedOtlp<T>;
}

/** Spans (or data points) a request carries, for the tenant's event limit; a body that did not decode counts as one. */
export function itemCount(request: FastifyRequest): number {
  const body = request.body as ParsedOtlp<ExportTraceServiceRequest | ExportMetricsServiceRequest> | undefined;
  if (!body?.result.ok) return 1;
  const { request: decoded } = body.result;
  const count =
    'resourceSpans' in decoded
      ? (decoded.resourceSpans ?? []).reduce((n, r) => n + (r.scopeSpans ?? []).reduce((m, s) => m + s.spans.length, 0), 0)
      : ((decoded as ExportMetricsServiceRequest).resourceMetrics ?? []).reduce(
          (n, r) => n + (r.scopeMetrics ?? []).reduce((m, s) => m + s.metrics.reduce((k, metric) => k + metric.dataPoints, 0), 0),
          0,
        );
  return Math.max(1, count);
}

/** Every failure as OTLP/HTTP answers it: the HTTP status, and google.rpc.Status in the request's encoding. */
function sendFailure(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.detail.headers ?? {})) reply.header(name, value);
  const answer = failureAnswer(encodingOf(request), { httpStatus: error.status, message: error.message, reason: error.code });
  return reply.status(error.status).type(answer.contentType).send(answer.body);
}

function asApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new ApiError('VALIDATION_ERROR', 'unsupported content type: OTLP/HTTP sends application/x-protobuf or application/json');
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError('PAYLOAD_TOO_LARGE', `the body exceeds ${OTLP_BODY_LIMIT_BYTES} bytes`);
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error.statusCode === 400) return new ApiError('VALIDATION_ERROR', error.message);
  return new ApiError('INTERNAL', 'internal error');
}

/**
 * OTLP/HTTP at the service root, where exporters post when given only
 * OTEL_EXPORTER_OTLP_ENDPOINT: `/v1/traces` and `/v1/metrics`, protobuf or
 * JSON, gzip or not, the API key as `Authorization: Bearer` (what
 * OTEL_EXPORTER_OTLP_HEADERS sets). Every answer, failures included, is
 * OTLP's own.
 */
export function registerOtlpRoutes(app: FastifyInstance, intake: Intake, policy: OtlpPolicy, now: () => Date): void {
  app.removeAllContentTypeParsers();
  for (const [type, encoding] of Object.entries(OTLP_CONTENT_TYPES)) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: OTLP_BODY_LIMIT_BYTES }, (request, body, done) => {
      const raw = body as Buffer;
      const received = { bytes: raw, encoding, contentEncoding: header(request, 'content-encoding') };
      const result = request.url.startsWith('/v1/metrics') ? readMetricsRequest(received) : readTraceRequest(received);
      done(null, { encoding, raw, result });
    });
  }
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = asApiError(error);
    if (apiError.code === 'INTERNAL') request.log.error({ err: error }, 'OTLP request failed');
    return sendFailure(request, reply, apiError);
  });

  const options = { bodyLimit: OTLP_BODY_LIMIT_BYTES, config: { policy } };
  app.post('/v1/traces', options, async (request, reply) => {
    const body = await decoded<ExportTraceServiceRequest>(request, intake, now, 'traces');
    const caller = request.caller as NonNullable<typeof request.caller>;
    const outcome = await acceptSpans(intake, { tenantId: caller.tenant.id, receivedAt: now() }, body);
    request.deliveryNotes = outcome.notes;
    const answer = exportAnswer('traces', parsed(request).encoding, outcome.rejected, outcome.message);
    return reply.status(200).type(answer.contentType).send(answer.body);
  });

  app.post('/v1/metrics', options, async (request, reply) => {
    const body = await decoded<ExportMetricsServiceRequest>(request, intake, now, 'metrics');
    const metrics = (body.resourceMetrics ?? []).flatMap((r) => (r.scopeMetrics ?? []).flatMap((s) => s.metrics));
    const others = metrics.filter((m) => !m.name.startsWith('lk.agents.turn.'));
    const rejected = others.reduce((n, m) => n + m.dataPoints, 0);
    const message =
      metrics.length === 0
        ? null
        : `Earshot keeps per-turn latency from the spans (/v1/traces), which lk.agents.turn.* summarize: their data points are acknowledged, not stored` +
          (others.length > 0
            ? `; ${rejected} data points of other metrics (${[...new Set(others.map((m) => m.name))].slice(0, 5).join(', ')}) are rejected`
            : '');
    request.deliveryNotes = [{ outcome: 'accepted', eventType: null, idempotencyKey: null, eventId: null, reason: message }];
    const answer = exportAnswer('metrics', parsed(request).encoding, rejected, message);
    return reply.status(200).type(answer.contentType).send(answer.body);
  });
}

/** The decoded request; one that did not decode is dead-lettered whole and answered 400 (or 413). */
async function decoded<T>(request: FastifyRequest, intake: Intake, now: () => Date, signal: Signal): Promise<T> {
  const body = parsed<T>(request);
  if (body.result.ok) return body.result.request;
  const caller = request.caller as NonNullable<typeof request.caller>;
  const sender = { tenantId: caller.tenant.id, provider: 'otlp', receivedAt: now() };
  const dead = deadLetterBody(body.raw, `OTLP ${signal}: ${body.result.message}`);
  const outcome = await intake.rejectBody(sender, dead.raw, dead.reason, [{ path: '(body)', message: body.result.message }]);
  request.deliveryNotes = [outcome.note];
  throw new ApiError(body.result.code, body.result.message, { deadLetterId: outcome.result.deadLetterId });
}
