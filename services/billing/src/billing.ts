import type { FastifyInstance } from 'fastify';
import { runAsSingleton, type Module, type Runtime, useZodContracts } from '@earshot/server';
import { closePeriods } from './period-closer';
import { registerPlanRoutes } from './plan-routes';

export interface BillingOptions {
  /** How often the closer looks for ended periods; EARSHOT_BILLING_CLOSE_INTERVAL by default. */
  closeIntervalMs?: number;
  /** How long after a period's end it may close (see CloseOptions.settleMs). */
  settleMs?: number;
  appendTimeoutMs?: number;
}

/**
 * The billing service: the operator's price plans per tenant, and the period
 * closer, which issues each ended period's invoice to the log. The meters and
 * invoices are read models the projector keeps; GET /usage and
 * GET /billing/invoices are the query service's.
 */
export function billingModule(runtime: Runtime, options: BillingOptions = {}): Module {
  const interval = options.closeIntervalMs ?? runtime.config.EARSHOT_BILLING_CLOSE_INTERVAL;
  const settleMs = options.settleMs ?? 60_000;
  return {
    name: 'billing',
    dependsOn: ['database', 'log', 'http', 'access'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      await runtime.http().register(
        async (api: FastifyInstance) => {
          useZodContracts(api, runtime.config);
          registerPlanRoutes(api, { db, log, appendTimeoutMs: options.appendTimeoutMs ?? 5_000 });
        },
        { prefix: '/api/v1' },
      );
      return runAsSingleton(
        {
          db,
          name: 'earshot:billing-period-close',
          intervalMs: interval,
          ttlMs: runtime.config.EARSHOT_LEASE_TTL,
          onError: (error) => runtime.logger.error({ err: error }, 'billing period close failed'),
          onChange: (held) => runtime.logger.info(held ? 'closing billing periods in this process' : 'another process closes billing periods'),
        },
        (fence) => closePeriods({ db, log, now: runtime.now(), settleMs }, fence),
      );
    },
  };
}
