import { lagFromPositions, type Module, type Runtime } from '@earshot/server';
import { PROJECTED_TOPICS, startProjector } from './projector';
import { countBatch } from './projector-metrics';

/** The projector as a service module: needs the database and the log; stopping finishes the batch in hand. */
export function projectorModule(runtime: Runtime): Module {
  return {
    name: 'projector',
    dependsOn: ['database', 'log'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      const { metrics } = runtime;
      const running = await startProjector({
        db,
        log,
        now: runtime.now,
        onBatch: (outcome, records) => countBatch(metrics, outcome, records, new Date()),
        onRetry: (error) => runtime.logger.warn({ err: error }, 'projector batch failed; retrying'),
      });
      const unwatch = metrics.watchLag('projector', lagFromPositions(db, log, 'projector_positions', PROJECTED_TOPICS));
      return {
        stop: async () => {
          unwatch();
          await running.stop();
        },
      };
    },
  };
}
