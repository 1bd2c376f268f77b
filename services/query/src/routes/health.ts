import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HealthDegradedSchema, HealthSchema } from '@earshot/contracts';
import type { HealthChecks } from '@earshot/server';

/** GET /api/v1/health, no key: the process's dependencies (database, log) by name; 503 in the Error shape naming what is down. */
export function registerHealthRoutes(app: FastifyInstance, health: HealthChecks, service: string): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: { response: { 200: HealthSchema, 503: HealthDegradedSchema } },
    },
    async (_request, reply) => {
      const { status, body } = await health.report(service);
      return reply.status(status).send(body);
    },
  );
}
