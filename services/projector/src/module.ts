import { DataKeys } from '@earshot/auth';
import { lagFromPositions, type Module, type Runtime } from '@earshot/server';
import { dataKeyOptions } from './data-key-options';
import { PROJECTED_TOPICS, startProjector } from './projector';
import { countBatch } from './projector-metrics';

/** The projector as a service module: needs the database, the log and the master key (to open sealed events); stopping finishes the batch in hand. */
export function projectorModule(runtime: Runtime): Module {
  return {
    name: 'projector',
    dependsOn: ['database', 'log', 'access'],
    start: async () => {
      const db = runtime.database();
      const log = runtime.log();
      const { metrics } = runtime;
      const running = await startProjector({
        db,
        log,
        now: runtime.now,
        ...dataKeyOptions(new DataKeys(db, runtime.access().secrets)),
        onBatch: (outcome, records) => {
          countBatch(metrics, outcome, records, new Date());
          const first = records[0];
          if (outcome.readFrom !== undefined && first)
            runtime.logger.warn(
              { topic: first.topic, partition: first.partition, stored: outcome.readFrom, batch: first.offset },
              'the read models are behind the log here (the database was restored, or lost its last commits): reading the partition again from their position',
            );
          if (outcome.missing > 0 && first)
            runtime.logger.error(
              { topic: first.topic, partition: first.partition, missing: outcome.missing, before: first.offset },
              'the read models skipped offsets they never applied, which the log no longer holds (its retention trimmed them before they were read); a rebuild from the log restores what it still holds',
            );
        },
        onRetry: (error) => runtime.logger.warn({ err: error }, 'projector batch failed; retrying'),
        onBehind: (partitions) =>
          runtime.logger.warn(
            { partitions },
            'the stored positions went back behind what this projector committed (the database was restored, or lost its last commits): rejoining to read them again',
          ),
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
