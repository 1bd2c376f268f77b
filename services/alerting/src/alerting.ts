import type { FastifyInstance } from 'fastify';
import type { MigrationSet } from '@earshot/db';
import { runAsSingleton, type Module, type Runtime, useZodContracts } from '@earshot/server';
import { evaluateRules } from './evaluator';
import { startNotifier } from './notifier';
import { registerWebhookRoutes } from './webhook-routes';

export const ALERTING_MIGRATIONS: readonly MigrationSet[] = [{ module: 'alerting', directory: new URL('../migrations/', import.meta.url) }];

export interface AlertingOptions {
  /** How often every rule is evaluated; EARSHOT_ALERT_INTERVAL by default. */
  evaluationIntervalMs?: number;
  notificationAttempts?: number;
  notificationBackoffMs?: number;
}

/**
 * The alerting service: evaluates every tenant's rules from the rollups each
 * interval (alert.fired / alert.resolved and the incidents they open and
 * resolve, appended to the log), and delivers signed notifications.
 */
export function alertingModule(runtime: Runtime, options: AlertingOptions = {}): Module {
  const interval = options.evaluationIntervalMs ?? runtime.config.EARSHOT_ALERT_INTERVAL;
  return {
    name: 'alerting',
    // It reads the projector's read models but not through the projector: --target=alerting runs apart from it.
    dependsOn: ['database', 'log', 'http', 'access'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      await runtime.http().register(
        async (api: FastifyInstance) => {
          useZodContracts(api, runtime.config);
          registerWebhookRoutes(api, db, runtime.now);
        },
        { prefix: '/api/v1' },
      );
      const notifier = await startNotifier({
        db,
        log,
        secrets: runtime.access().secrets,
        now: runtime.now,
        attempts: options.notificationAttempts,
        backoffMs: options.notificationBackoffMs,
      });
      const evaluation = runAsSingleton(
        {
          db,
          name: 'earshot:alert-evaluation',
          intervalMs: interval,
          ttlMs: runtime.config.EARSHOT_LEASE_TTL,
          onError: (error) => runtime.logger.error({ err: error }, 'alert evaluation failed'),
          onChange: (held) => runtime.logger.info(held ? 'evaluating alert rules in this process' : 'another process evaluates alert rules'),
        },
        (fence) => evaluateRules(db, log, runtime.now(), fence),
      );
      return {
        stop: async () => {
          await evaluation.stop();
          await notifier.stop();
        },
      };
    },
  };
}
