import type { FastifyInstance } from 'fastify';
import type { Module, RoutePolicy, Runtime } from '@earshot/server';
import { registerGraphqlRoutes } from './graphql/graphql-routes';
import { registerDescriptionRoutes } from './routes/description';
import { LiveEvents } from './stream/live-events';
import { registerStreamRoute } from './stream/stream-route';

export interface DeveloperOptions {
  /** Live events held for a resuming stream client while it catches up. */
  streamMaxQueuedEvents?: number;
}

/**
 * The developer surfaces at the service root: the OpenAPI description, the
 * Postman collection and the explorer (public), GraphQL and the live event
 * stream (behind the same key auth, scopes and limits as REST).
 */
export function developerModule(runtime: Runtime, options: DeveloperOptions = {}): Module {
  return {
    name: 'developer',
    dependsOn: ['database', 'log', 'http', 'access'],
    start: async () => {
      const report = (what: string) => (error: unknown) => console.error(`[developer] ${what}: ${error instanceof Error ? error.message : String(error)}`);
      const live = new LiveEvents(runtime.log(), report('a streamed event did not decode'));
      const policy: RoutePolicy = { auth: 'apiKey', scope: 'calls:read' };
      const stream = {
        heartbeatMs: runtime.config.EARSHOT_STREAM_HEARTBEAT_MS,
        maxBufferedBytes: runtime.config.EARSHOT_STREAM_BUFFER_BYTES,
        maxQueuedEvents: options.streamMaxQueuedEvents ?? 10_000,
      };

      await runtime.http().register(async (app: FastifyInstance) => {
        await registerDescriptionRoutes(app);
        await app.register(async (api: FastifyInstance) => {
          api.addHook('onClose', () => live.stop());
          await registerGraphqlRoutes(api, runtime.tenantReads(), runtime.now);
          await registerStreamRoute(api, runtime.log(), live, policy, stream);
        });
      });
      // Stopping happens in onClose above, when the HTTP module closes after this one.
      return { stop: async () => undefined };
    },
  };
}
