import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { ApiError } from '@earshot/contracts';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface HttpOptions {
  /** Print one line per request (off in tests). */
  logRequests?: boolean;
  /** Proxies whose X-Forwarded-For is believed (IPs or CIDRs); nobody else's is. */
  trustedProxies?: readonly string[];
}

/**
 * The HTTP app every service registers its routes on. It owns the one place
 * where errors become HTTP: an ApiError keeps its code and status, anything
 * Fastify rejects is mapped to the catalogue, and the rest is a 500 that
 * leaks nothing.
 */
export function buildHttp(options: HttpOptions = {}): FastifyInstance {
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: options.trustedProxies && options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
    logger: options.logRequests ? { level: 'info' } : false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500 && !(error instanceof ApiError)) request.log.error({ err: error }, 'unhandled error');
    if (apiError.status >= 500 && !(error instanceof ApiError) && !options.logRequests) console.error(`[http] ${request.method} ${request.url}:`, error);
    for (const [name, value] of Object.entries(apiError.detail.headers ?? {})) reply.header(name, value);
    return reply.status(apiError.status).send(apiError.body(request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
    return reply.status(error.status).send(error.body(request.id));
  });

  return app;
}

function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError('PAYLOAD_TOO_LARGE', `request body exceeds ${BODY_LIMIT_BYTES} bytes`);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ApiError('VALIDATION_ERROR', 'unsupported content type; send application/json');
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return new ApiError('VALIDATION_ERROR', 'request body is empty; send a JSON body');
  if (error.statusCode === 400 || error instanceof SyntaxError) return new ApiError('VALIDATION_ERROR', `invalid request: ${error.message}`);
  if (error.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE', error.message);
  return new ApiError('INTERNAL', 'internal error');
}
