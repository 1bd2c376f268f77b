import { DataKeys } from '@earshot/auth';
import type { ProjectorOptions } from './projector';

/** How the projector opens sealed events with the data keys, and keeps erased calls out: looked up per batch and held in its transaction. */
export function dataKeyOptions(dataKeys: DataKeys): Pick<ProjectorOptions, 'keys' | 'holdKeys' | 'erasedCalls' | 'holdErasures'> {
  return {
    keys: (ids) => dataKeys.lookup(ids),
    holdKeys: (tx, ids) => DataKeys.hold(tx, ids),
    erasedCalls: (calls) => dataKeys.erasedCalls(calls),
    holdErasures: (tx, calls) => DataKeys.holdErasures(tx, calls),
  };
}
