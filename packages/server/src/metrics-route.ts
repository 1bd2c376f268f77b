import type { FastifyInstance } from 'fastify';
import { ApiError } from '@earshot/contracts';
import type { Metrics } from '@earshot/telemetry';
import { bearer } from './access/request-headers';
import { sameSecret } from './access/same-secret';

const METRICS_ROUTE = '/metrics';

/**
 * Prometheus's scrape target, at the service root of every process whatever
 * its target (not the tenants' `/api/v1/metrics`). Open, as Prometheus
 * expects on a private port, unless EARSHOT_METRICS_TOKEN is set: then it
 * wants that token as a bearer. It checks the token itself because the
 * access module is not in every process (a projector-only one has none).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.get(
    METRICS_ROUTE,
    {
      config: { policy: { auth: 'public' } },
      // The operator's scrape target, not part of the tenants' API description.
      schema: { hide: true },
      onRequest: async (request) => {
        if (token === undefined) return;
        const presented = bearer(request);
        if (!presented || !sameSecret(presented, token))
          throw new ApiError('UNAUTHORIZED', 'the metrics token is required: Authorization: Bearer $EARSHOT_METRICS_TOKEN');
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await metrics.exposition();
      return reply.type(contentType).send(body);
    },
  );
}
