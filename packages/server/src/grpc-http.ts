import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { requestOptions } from './http';

export interface GrpcHttpOptions {
  logger?: FastifyBaseLogger;
  /** Proxies whose X-Forwarded-For is believed, as on the HTTP app: the keys' IP allowlists read the same address. */
  trustedProxies?: readonly string[];
  /** How long an HTTP/2 connection may sit idle before it is closed. */
  idleTimeoutMs: number;
  /** Connections the process holds at once on this port. */
  maxConnections: number;
}

/** gRPC's status codes this app answers by itself; the services map their own failures. */
const UNIMPLEMENTED = 12;
const INTERNAL = 13;
const UNAVAILABLE = 14;

/**
 * The app gRPC services register on: HTTP/2 without TLS (h2c), which is what
 * gRPC clients speak to a plaintext endpoint, on a port of its own since
 * cleartext HTTP/2 and HTTP/1.1 cannot share one. Access is enforced on it by
 * the same plugin as on the HTTP app (the runtime registers it), from the
 * policy each route declares.
 *
 * It is typed as the HTTP app: the access plugin, route policies and request
 * hooks are written against Fastify's default server types and use only what
 * an HTTP/2 request has too (headers, ip, routeOptions, body).
 */
export function buildGrpcHttp(options: GrpcHttpOptions): FastifyInstance {
  const app = Fastify({
    http2: true,
    http2SessionTimeout: options.idleTimeoutMs,
    ...requestOptions(options),
    // Exporters hold their connection open between exports: a drain closes the sessions, or it would wait for them.
    forceCloseConnections: true,
    // Fastify's answer while closing is an HTTP 503; a gRPC client is answered UNAVAILABLE in gRPC's own form (below).
    return503OnClosing: false,
  }) as unknown as FastifyInstance;
  app.server.maxConnections = options.maxConnections;
  app.removeAllContentTypeParsers();
  // A request that reaches a closing app (one in flight on a session before its GOAWAY) is one to retry elsewhere.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) return sendGrpc(reply, { 'grpc-status': String(UNAVAILABLE), 'grpc-message': 'the server is shutting down: try again' });
  });
  const noMethod = (request: FastifyRequest, reply: FastifyReply) =>
    sendGrpc(reply, { 'grpc-status': String(UNIMPLEMENTED), 'grpc-message': `no gRPC method ${pathOf(request.url)}` });
  app.setNotFoundHandler(noMethod);
  // Each service sets its own error handler; what reaches this one is a request no route took, or a bug.
  app.setErrorHandler((error, request, reply) => {
    if (request.is404) return noMethod(request, reply);
    request.log.error({ err: error }, 'gRPC request failed');
    return sendGrpc(reply, { 'grpc-status': String(INTERNAL), 'grpc-message': 'internal error' });
  });
  return app;
}

/** The path as a grpc-message may carry it: `%` and whatever is not printable ASCII percent-escaped. */
function pathOf(url: string): string {
  const path = (url.split('?')[0] ?? '/').slice(0, 200);
  return path.replace(/[^\x20-\x24\x26-\x7e]/gu, (c) => `%${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * Every gRPC answer: HTTP 200, whatever the outcome (a gRPC client reads the
 * outcome from the trailers, and an HTTP error status from a proxy), the
 * message if there is one, then the trailers.
 */
export function sendGrpc(reply: FastifyReply, trailers: Record<string, string | undefined>, message?: Buffer): FastifyReply {
  // Fastify asks to close the connection after a body it refused; HTTP/2 has no such header (Node drops it, warning).
  reply.status(200).header('content-type', 'application/grpc+proto').removeHeader('connection');
  for (const [name, value] of Object.entries(trailers)) if (value !== undefined) reply.trailer(name, async () => value);
  return reply.send(message);
}
