import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '@earshot/contracts';
import type { Intake } from '@earshot/intake';
import { exportAnswer, frame, GRPC_MESSAGE_LIMIT_BYTES, GRPC_OK, grpcFailure, unframe } from '@earshot/otlp';
import { header, sendGrpc } from '@earshot/server';
import { exportMetrics, exportTraces, parseExport, type Signal } from './otlp-export';
import type { OtlpPolicy } from './otlp-routes';

/** The two unary methods, at the paths gRPC calls them by (`/<package>.<Service>/<Method>`). */
const METHODS: Record<Signal, string> = {
  traces: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
  metrics: '/opentelemetry.proto.collector.metrics.v1.MetricsService/Export',
};
/** gRPC's content types for protobuf messages (`application/grpc` means protobuf). */
const GRPC_CONTENT_TYPES = ['application/grpc', 'application/grpc+proto'] as const;
/** One message and its 5-byte prefix. */
const BODY_LIMIT_BYTES = GRPC_MESSAGE_LIMIT_BYTES + 5;

function asApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new ApiError('VALIDATION_ERROR', 'unsupported content type: OTLP/gRPC sends application/grpc (protobuf messages)');
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new ApiError('PAYLOAD_TOO_LARGE', `the request is over ${BODY_LIMIT_BYTES} bytes: one gRPC message of at most ${GRPC_MESSAGE_LIMIT_BYTES}`);
  if (error.statusCode === 400) return new ApiError('VALIDATION_ERROR', error.message);
  return new ApiError('INTERNAL', 'internal error');
}

/**
 * OTLP/gRPC: the collector's TraceService and MetricsService Export, on the
 * gRPC app (HTTP/2 cleartext), the API key in the `authorization` metadata
 * as `Bearer <key>` (what OTEL_EXPORTER_OTLP_HEADERS sets). The routes
 * declare the OTLP/HTTP routes' policy and take the same path from the
 * decoded request on; only the framing and the answer's form are gRPC's:
 * the ExportServiceResponse as a length-prefixed message, the outcome in
 * the `grpc-status` trailer, a failure's google.rpc.Status (with RetryInfo
 * when a rate limit says when) in `grpc-status-details-bin`.
 */
export function registerOtlpGrpcRoutes(app: FastifyInstance, intake: Intake, policy: OtlpPolicy, now: () => Date): void {
  for (const type of GRPC_CONTENT_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
      const raw = body as Buffer;
      const signal: Signal = request.url === METHODS.metrics ? 'metrics' : 'traces';
      done(null, parseExport(signal, raw, unframe(raw, header(request, 'grpc-encoding'))));
    });
  }
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = asApiError(error);
    if (apiError.code === 'INTERNAL') request.log.error({ err: error }, 'OTLP/gRPC request failed');
    request.answeredAs = apiError.status;
    const retryAfter = Number(apiError.detail.headers?.['retry-after']);
    const accepted = apiError.detail.headers?.['grpc-accept-encoding'];
    if (accepted !== undefined) reply.header('grpc-accept-encoding', accepted);
    const status = { httpStatus: apiError.status, message: apiError.message, reason: apiError.code };
    return sendGrpc(reply, grpcFailure(Number.isFinite(retryAfter) ? { ...status, retryAfterSeconds: retryAfter } : status));
  });

  const options = { bodyLimit: BODY_LIMIT_BYTES, config: { policy } };
  app.post(METHODS.traces, options, async (request, reply) => {
    const outcome = await exportTraces(request, intake, now);
    return sendGrpc(reply, GRPC_OK, frame(exportAnswer('traces', 'protobuf', outcome.rejected, outcome.message).body));
  });
  app.post(METHODS.metrics, options, async (request, reply) => {
    const outcome = await exportMetrics(request, intake, now);
    return sendGrpc(reply, GRPC_OK, frame(exportAnswer('metrics', 'protobuf', outcome.rejected, outcome.message).body));
  });
}
