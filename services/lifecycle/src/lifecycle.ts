import type { FastifyInstance } from 'fastify';
import { DataKeys } from '@earshot/auth';
import type { MigrationSet } from '@earshot/db';
import { runAsSingleton, type Module, type Runtime, useZodContracts } from '@earshot/server';
import { abandonSilentCalls } from './abandonment';
import { deploymentDefaults } from './data-settings';
import { registerDataSettingsRoutes } from './routes/data-settings';
import { dailyRetention } from './retention';

export const LIFECYCLE_MIGRATIONS: readonly MigrationSet[] = [{ module: 'lifecycle', directory: new URL('../migrations/', import.meta.url) }];

export interface LifecycleOptions {
  /** How often silent calls are looked for; by default a quarter of EARSHOT_ABANDON_AFTER, between 1 s and a minute. */
  abandonIntervalMs?: number;
  /** How often the daily retention job looks whether today's pass is done (default hourly). */
  retentionIntervalMs?: number;
}

/**
 * Data over time: calls whose provider fell silent are declared abandoned (a
 * call.abandoned in the log), the daily retention job, and the operator's
 * data settings per tenant and plan. Its rounds run in one process at a
 * time, under leases.
 */
export function lifecycleModule(runtime: Runtime, options: LifecycleOptions = {}): Module {
  return {
    name: 'lifecycle',
    dependsOn: ['database', 'log', 'http', 'access'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      const defaults = deploymentDefaults(runtime.config);
      const sealing = runtime.config.EARSHOT_SEAL_EVENTS ? new DataKeys(db, runtime.access().secrets) : undefined;
      await runtime.http().register(
        async (api: FastifyInstance) => {
          useZodContracts(api, runtime.config);
          registerDataSettingsRoutes(api, db, defaults);
        },
        { prefix: '/api/v1' },
      );
      const report = (what: string) => (error: unknown) => runtime.logger.error({ err: error }, what);
      const abandonment = runAsSingleton(
        {
          db,
          name: 'earshot:abandon-silent-calls',
          intervalMs: options.abandonIntervalMs ?? Math.min(60_000, Math.max(1_000, Math.floor(defaults.abandonAfterMs / 4))),
          ttlMs: runtime.config.EARSHOT_LEASE_TTL,
          onError: report('abandoning silent calls failed'),
        },
        async (fence) => {
          const { abandoned } = await abandonSilentCalls({ db, log, now: runtime.now(), defaultAfterMs: defaults.abandonAfterMs, sealing }, fence);
          if (abandoned > 0) runtime.logger.info({ abandoned }, 'silent calls abandoned');
        },
      );
      const retention = runAsSingleton(
        {
          db,
          name: 'earshot:retention',
          intervalMs: options.retentionIntervalMs ?? 3_600_000,
          ttlMs: runtime.config.EARSHOT_LEASE_TTL,
          onError: report('the retention job failed'),
        },
        async (fence) => {
          const run = await dailyRetention({ db, now: runtime.now(), defaults, dedupeWindowMs: runtime.config.EARSHOT_DEDUPE_WINDOW }, fence);
          if (run.ran) runtime.logger.info({ day: run.day, tenants: run.tenants, deleted: run.deleted }, 'daily retention done');
        },
      );
      return { stop: async () => void (await Promise.all([abandonment.stop(), retention.stop()])) };
    },
  };
}
