import type { FastifyInstance } from 'fastify';

/**
 * One entry per answered request, as an access log: the route it matched
 * (its template, not the path), the status and how long it took. The entry
 * carries the request id, and the tenant once the key named one.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const entry = {
      method: request.method,
      route: request.routeOptions.url ?? null,
      statusCode: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime),
    };
    if (reply.statusCode >= 500) request.log.warn(entry, 'request failed');
    else request.log.info(entry, 'request completed');
  });
}
