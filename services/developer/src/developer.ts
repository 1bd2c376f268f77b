import type { FastifyInstance } from 'fastify';
import type { Module, Runtime } from '@earshot/server';
import { registerDescriptionRoutes } from './routes/description';

/** The developer surfaces at the service root, public: the OpenAPI description, the Postman collection and the explorer. */
export function developerModule(runtime: Runtime): Module {
  return {
    name: 'developer',
    dependsOn: ['http'],
    start: async () => {
      await runtime.http().register(async (app: FastifyInstance) => registerDescriptionRoutes(app));
      return { stop: async () => undefined };
    },
  };
}
