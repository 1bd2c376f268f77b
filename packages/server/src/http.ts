import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { ApiError } from '@earshot/contracts';
import { connectionOptions, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits';
import { registerJsonBodies } from './json-body';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The longest path parameter any route declares, in characters. */
export const MAX_PATH_PARAM_CHARS = 200;
// The router measures a parameter still percent-encoded: a character is at most 4 UTF-8 bytes of 3 characters each.
const MAX_ENCODED_PARAM_LENGTH = MAX_PATH_PARAM_CHARS * 12;

export interface HttpOptions {
  /** The process's logger: each request's entries carry its id (and, once authenticated, its tenant). */
  logger?: FastifyBaseLogger;
  /** Proxies whose X-Forwarded-For is believed (IPs or CIDRs); nobody else's is. */
  trustedProxies?: readonly string[];
  /** Timeouts and the connection cap; the defaults hold where none are given. */
  limits?: ConnectionLimits;
}

/**
 * The HTTP app every service registers its routes on. It owns the one place
 * where errors become HTTP: an ApiError keeps its code and status, anything
 * Fastify rejects is mapped to the catalogue, and the rest is a 500 that
 * leaks nothing.
 */
export function buildHttp(options: HttpOptions = {}): FastifyInstance {
  const limits = options.limits ?? DEFAULT_CONNECTION_LIMITS;
  const app = Fastify({
    ...connectionOptions(limits),
    bodyLimit: BODY_LIMIT_BYTES,
    ...requestOptions(options),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: MAX_ENCODED_PARAM_LENGTH },
    // A path Fastify's router refuses (a parameter too long, a malformed escape) is still answered in the Error shape.
    frameworkErrors: (error, request, reply) => void send(reply, request, toApiError(error)),
  });
  app.server.maxConnections = limits.maxConnections;
  registerJsonBodies(app);
  const methods = methodsByPath(app);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    // A request no route takes can fail before the not-found handler (a body it cannot parse): it is still a 404 or 405.
    const apiError = request.is404 ? noRoute(request, methods) : toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, error instanceof ApiError ? error.message : 'unhandled error');
    return send(reply, request, apiError);
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, noRoute(request, methods)));

  return app;
}

/** What every app of the process does alike with a request: its id, the address the trusted proxies vouch for, its logger. */
export function requestOptions(options: Pick<HttpOptions, 'logger' | 'trustedProxies'>) {
  return {
    genReqId: () => randomUUID(),
    requestIdHeader: false as const,
    trustProxy: options.trustedProxies && options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false as const }),
    // One line per request, written when it is answered (request-log.ts), rather than Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
  };
}

function send(reply: FastifyReply, request: FastifyRequest, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.detail.headers ?? {})) reply.header(name, value);
  return reply.status(error.status).send(error.body(request.id));
}

type MethodsOf = (path: string) => string[];

/** The methods each registered path answers, so a request with another method gets 405 and `Allow`, not 404. */
function methodsByPath(app: FastifyInstance): MethodsOf {
  const router = FindMyWay({ maxParamLength: MAX_ENCODED_PARAM_LENGTH });
  const routes = new Set<string>();
  const used = new Set<FindMyWay.HTTPMethod>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat() as FindMyWay.HTTPMethod[]) {
      if (routes.has(`${method} ${route.url}`)) continue;
      routes.add(`${method} ${route.url}`);
      used.add(method);
      router.on(method, route.url, () => undefined);
    }
  });
  return (path) => [...used].filter((method) => router.find(method, path) !== null);
}

function noRoute(request: FastifyRequest, methods: MethodsOf): ApiError {
  const path = request.url.split('?')[0] ?? '/';
  const allowed = methods(path);
  if (allowed.length === 0) return new ApiError('NOT_FOUND', `no route ${request.method} ${path}`);
  return new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`, {
    headers: { allow: allowed.join(', ') },
  });
}

function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError('PAYLOAD_TOO_LARGE', `request body exceeds ${BODY_LIMIT_BYTES} bytes`);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'unsupported content type; send application/json');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return new ApiError('VALIDATION_ERROR', `a path parameter is longer than ${MAX_PATH_PARAM_CHARS} characters`);
  if (error.code === 'FST_ERR_BAD_URL') return new ApiError('VALIDATION_ERROR', 'the path is not a valid URL component');
  if (error.statusCode === 400 || error instanceof SyntaxError) return new ApiError('VALIDATION_ERROR', `invalid request: ${error.message}`);
  if (error.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE', error.message);
  if (error.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', error.message);
  // Whatever else Fastify refuses as the client's fault stays the client's: never a 500.
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return new ApiError('VALIDATION_ERROR', `invalid request: ${error.message}`);
  return new ApiError('INTERNAL', 'internal error');
}
