import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { METRIC_NAMES, MetricCatalogueSchema } from '@earshot/contracts';
import { METRIC_CATALOGUE } from '@earshot/metrics';
import { policyOf } from '../route-scopes';
import { ROUTE_ERRORS } from '@earshot/server';

/** GET /metrics/catalogue: the names GET /metrics and alert rules accept, so clients need not copy the list. */
export function registerMetricCatalogueRoutes(app: FastifyInstance): void {
  const items = METRIC_NAMES.map((name) => ({ name, description: METRIC_CATALOGUE[name].description, unit: METRIC_CATALOGUE[name].unit }));
  app.withTypeProvider<ZodTypeProvider>().get(
    '/metrics/catalogue',
    {
      schema: { response: { 200: MetricCatalogueSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /metrics/catalogue') },
    },
    () => ({ ok: true as const, items }),
  );
}
