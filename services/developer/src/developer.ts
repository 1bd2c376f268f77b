import type { FastifyInstance } from 'fastify';
import type { Module, Runtime } from '@earshot/server';
import { registerDescriptionRoutes } from './routes/description';

/**
 * The developer surfaces at the service root: the OpenAPI description, the
 * Postman collection, the explorer, GraphQL and the live event stream.
 */
export function developerModule(runtime: Runtime): Module {
  return {
    name: 'developer',
    dependsOn: ['database', 'log', 'http'],
    start: async () => {
      await runtime.http().register(async (app: FastifyInstance) => {
        await registerDescriptionRoutes(app);
      });
      return { stop: async () => undefined };
    },
  };
}
