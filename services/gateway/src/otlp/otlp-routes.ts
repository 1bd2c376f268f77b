import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '@earshot/contracts';
import type { Intake } from '@earshot/intake';
import { exportAnswer, failureAnswer, OTLP_CONTENT_TYPES, type OtlpEncoding } from '@earshot/otlp';
import { header, type RoutePolicy } from '@earshot/server';
import { exportMetrics, exportTraces, parsed, parseExport } from './otlp-export';

/** Exporters batch up to 512 spans, and LiveKit's carry the chat context: more room than the JSON ingest's 1 MiB. */
const OTLP_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

export type OtlpPolicy = Extract<RoutePolicy, { auth: 'apiKey' }>;

function encodingOf(request: FastifyRequest): OtlpEncoding | undefined {
  const type = (header(request, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return OTLP_CONTENT_TYPES[type];
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
      const received = { ok: true as const, request: { bytes: raw, encoding, contentEncoding: header(request, 'content-encoding') } };
      done(null, parseExport(request.url.startsWith('/v1/metrics') ? 'metrics' : 'traces', raw, received));
    });
  }
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = asApiError(error);
    if (apiError.code === 'INTERNAL') request.log.error({ err: error }, 'OTLP request failed');
    return sendFailure(request, reply, apiError);
  });

  const options = { bodyLimit: OTLP_BODY_LIMIT_BYTES, config: { policy } };
  app.post('/v1/traces', options, async (request, reply) => {
    const outcome = await exportTraces(request, intake, now);
    const answer = exportAnswer('traces', parsed(request).encoding, outcome.rejected, outcome.message);
    return reply.status(200).type(answer.contentType).send(answer.body);
  });

  app.post('/v1/metrics', options, async (request, reply) => {
    const outcome = await exportMetrics(request, intake, now);
    const answer = exportAnswer('metrics', parsed(request).encoding, outcome.rejected, outcome.message);
    return reply.status(200).type(answer.contentType).send(answer.body);
  });
}
