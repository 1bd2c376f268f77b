import type { Config } from '@earshot/config';
import { gatewayModule, GATEWAY_MIGRATIONS } from '@earshot/gateway';
import { projectorModule, PROJECTOR_MIGRATIONS } from '@earshot/projector';
import { createRuntime, type Module, type Runtime } from '@earshot/server';

/**
 * The composition root: the only place that knows which services exist and
 * what each needs. `all` is just the module that depends on every service.
 */
export function composeTargets(config: Config): { runtime: Runtime; modules: Module[] } {
  const { runtime, modules: infrastructure } = createRuntime({ config, service: 'earshot', migrations: [...GATEWAY_MIGRATIONS, ...PROJECTOR_MIGRATIONS] });
  const services: Module[] = [gatewayModule(runtime), projectorModule(runtime)];
  const all: Module = { name: 'all', dependsOn: ['database', 'log', 'http', ...services.map((s) => s.name)], start: async () => ({ stop: async () => undefined }) };
  return { runtime, modules: [...infrastructure, ...services, all] };
}
