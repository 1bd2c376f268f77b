import type { EventLog } from '@earshot/log';

/** The log with `first` called once, when the first batch reaches any of its consumers (before it is applied): where a projector's timing starts. */
export function onFirstBatch(log: EventLog, first: () => void): EventLog {
  let seen = false;
  return {
    ...log,
    consume: (options) =>
      log.consume({
        ...options,
        onBatch: (records) => {
          if (!seen) {
            seen = true;
            first();
          }
          return options.onBatch(records);
        },
      }),
  };
}
