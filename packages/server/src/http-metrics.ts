import type { FastifyInstance } from 'fastify';
import type { Metrics } from '@earshot/telemetry';

/** A request no route took is counted under this, so a scan of random paths adds no series. */
const NO_ROUTE = 'unmatched';

/** Counts and times every answered request by method, route template and status. */
export function measureRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? NO_ROUTE, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
