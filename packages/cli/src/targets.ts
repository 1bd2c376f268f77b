import { alertingModule, ALERTING_MIGRATIONS } from '@earshot/alerting';
import { auditModule, AUDIT_MIGRATIONS } from '@earshot/audit';
import { billingModule } from '@earshot/billing';
import type { Config } from '@earshot/config';
import { consoleModule } from '@earshot/console/server';
import { describeRoutes, developerModule } from '@earshot/developer';
import { gatewayModule, GATEWAY_MIGRATIONS } from '@earshot/gateway';
import { keysModule, KEYS_MIGRATIONS } from '@earshot/keys';
import { lifecycleModule, LIFECYCLE_MIGRATIONS } from '@earshot/lifecycle';
import { projectorModule, PROJECTOR_MIGRATIONS } from '@earshot/projector';
import { queryModule, QUERY_MIGRATIONS } from '@earshot/query';
import { createRuntime, type Module, type Runtime } from '@earshot/server';
import { demoTenantModule } from './demo/demo-tenant';

/**
 * The composition root: the only place that knows which services exist and
 * what each needs. `all` is just the module that depends on every service.
 */
export function composeTargets(config: Config): { runtime: Runtime; modules: Module[] } {
  const { runtime, modules: infrastructure } = createRuntime({
    config,
    service: 'earshot',
    migrations: [
      ...GATEWAY_MIGRATIONS,
      ...PROJECTOR_MIGRATIONS,
      ...QUERY_MIGRATIONS,
      ...AUDIT_MIGRATIONS,
      ...KEYS_MIGRATIONS,
      ...ALERTING_MIGRATIONS,
      ...LIFECYCLE_MIGRATIONS,
    ],
    onHttp: describeRoutes,
  });
  const services: Module[] = [
    gatewayModule(runtime),
    projectorModule(runtime),
    queryModule(runtime),
    auditModule(runtime),
    keysModule(runtime),
    developerModule(runtime),
    alertingModule(runtime),
    billingModule(runtime),
    lifecycleModule(runtime),
    consoleModule(runtime, { redirectRoot: config.DATABASE_URL === undefined }),
  ];
  // The demonstration tenant comes with the zero-setup mode, or wherever its key is configured.
  const demo = config.DATABASE_URL === undefined || config.EARSHOT_DEMO_API_KEY !== undefined ? [demoTenantModule(runtime)] : [];
  const all: Module = {
    name: 'all',
    dependsOn: ['database', 'log', 'http', ...services.map((s) => s.name), ...demo.map((d) => d.name)],
    start: async () => ({ stop: async () => undefined }),
  };
  return { runtime, modules: [...infrastructure, ...services, ...demo, all] };
}
