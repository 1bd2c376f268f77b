import type { Module, Runtime } from '@earshot/server';
import { startProjector } from './projector';

/** The projector as a service module: needs the database and the log; stopping finishes the batch in hand. */
export function projectorModule(runtime: Runtime): Module {
  return {
    name: 'projector',
    dependsOn: ['database', 'log'],
    start: () =>
      startProjector({
        db: runtime.database(),
        log: runtime.log(),
        now: runtime.now,
        onRetry: (error) => runtime.logger.warn({ err: error }, 'projector batch failed; retrying'),
      }),
  };
}
