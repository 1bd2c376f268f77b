import type { FastifyInstance } from 'fastify';
import { ApiKeyCache, loadMasterKey, SecretBox } from '@earshot/auth';
import { RateLimiter } from '@earshot/rate-limit';
import { registerAuthHook, registerRateLimitHook, type Module, type RoutePolicy, type Runtime } from '@earshot/server';
import { registerGraphqlRoutes } from './graphql/graphql-routes';
import { registerDescriptionRoutes } from './routes/description';
import { LiveEvents } from './stream/live-events';
import { registerStreamRoute, registerSubprotocolKey } from './stream/stream-route';

export interface DeveloperOptions {
  rateLimitSyncMs?: number;
  /** Live events held for a resuming stream client while it catches up. */
  streamMaxQueuedEvents?: number;
  /** How long an authenticated key is kept before it is looked up again (a revocation takes at most this long). */
  keyCacheMs?: number;
}

const DEFAULTS: Required<DeveloperOptions> = {
  rateLimitSyncMs: 200,
  keyCacheMs: 10_000,
  streamMaxQueuedEvents: 10_000,
};

/**
 * The developer surfaces at the service root: the OpenAPI description, the
 * Postman collection and the explorer (public), GraphQL and the live event
 * stream (behind the same key auth, scopes and limits as REST).
 */
export function developerModule(runtime: Runtime, overrides: DeveloperOptions = {}): Module {
  const options = { ...DEFAULTS, ...overrides };
  return {
    name: 'developer',
    dependsOn: ['database', 'log', 'http'],
    start: async () => {
      const db = runtime.database();
      const perMinute = runtime.config.EARSHOT_KEY_REQUESTS_PER_MIN;
      const report = (what: string) => (error: unknown) => console.error(`[developer] ${what}: ${error instanceof Error ? error.message : String(error)}`);
      const keys = new ApiKeyCache(db, new SecretBox(loadMasterKey(runtime.config)), options.keyCacheMs);
      const limiter = new RateLimiter(db, { now: runtime.now, syncIntervalMs: options.rateLimitSyncMs, onError: report('rate-limit sync failed') });
      limiter.start();
      const live = new LiveEvents(runtime.log(), report('a streamed event did not decode'));
      const policy: RoutePolicy = { auth: 'apiKey', scope: 'calls:read', rateLimits: [{ name: 'requests', per: 'key', limit: perMinute }] };
      const stream = {
        heartbeatMs: runtime.config.EARSHOT_STREAM_HEARTBEAT_MS,
        maxBufferedBytes: runtime.config.EARSHOT_STREAM_BUFFER_BYTES,
        maxQueuedEvents: options.streamMaxQueuedEvents,
      };

      await runtime.http().register(async (app: FastifyInstance) => {
        await registerDescriptionRoutes(app);
        await app.register(async (api: FastifyInstance) => {
          registerSubprotocolKey(api);
          registerAuthHook(api, { keys, adminToken: runtime.config.EARSHOT_ADMIN_TOKEN, now: runtime.now });
          registerRateLimitHook(api, limiter);
          api.addHook('onClose', async () => {
            await live.stop();
            await limiter.stop();
          });
          await registerGraphqlRoutes(api, runtime.tenantReads(), perMinute, runtime.now);
          await registerStreamRoute(api, runtime.log(), live, policy, stream);
        });
      });
      // Stopping happens in onClose above, when the HTTP module closes after this one.
      return { stop: async () => undefined };
    },
  };
}
