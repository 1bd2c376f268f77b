import { PerformanceObserver } from 'node:perf_hooks';

/** The time the garbage collector has paused this process's thread since `start`. */
export interface CollectorPauses {
  start(): void;
  /** Milliseconds paused since `start`, those not yet delivered to the observer included. */
  ms(): number;
}

/**
 * Counts the collector's pauses from V8's `gc` performance entries: the cost
 * of what the code allocates and keeps alive, which a profile of the code
 * itself does not show. A pause is wall time, the thread standing still for
 * a collection: on a machine with a core to spare it is CPU the process spent
 * (its helper threads' share of a scavenge comes on top); on a busy one it
 * also holds the time the collector waited for a core.
 */
export function collectorPauses(): CollectorPauses {
  let ms = 0;
  let counting = false;
  const add = (entries: readonly { duration: number }[]) => {
    if (counting) for (const entry of entries) ms += entry.duration;
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  return {
    start: () => {
      observer.takeRecords();
      ms = 0;
      counting = true;
    },
    ms: () => {
      add(observer.takeRecords());
      return ms;
    },
  };
}
