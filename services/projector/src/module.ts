import { DataKeys } from '@earshot/auth';
import type { Module, Runtime } from '@earshot/server';
import { startProjector } from './projector';

/** The projector as a service module: needs the database, the log and the master key (to open sealed events); stopping finishes the batch in hand. */
export function projectorModule(runtime: Runtime): Module {
  return {
    name: 'projector',
    dependsOn: ['database', 'log', 'access'],
    start: () => {
      const dataKeys = new DataKeys(runtime.database(), runtime.access().secrets);
      return startProjector({ db: runtime.database(), log: runtime.log(), now: runtime.now, keys: (ids) => dataKeys.lookup(ids) });
    },
  };
}
