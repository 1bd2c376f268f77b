import { PerformanceObserver } from 'node:perf_hooks';

/** The time the garbage collector has paused this process's thread since `start`. */
export interface CollectorPauses {
  start(): void;
  /** Milliseconds paused since `start`, those not yet delivered to the observer included. */
  ms(): number;
}

/**
 * Counts the collector's pauses from V8's `gc` performance entries. A pause
 * is the time the thread stood still for a collection, so it is part of the
 * process's CPU (its helper threads' share of a scavenge comes on top): the
 * cost of what the code allocates and keeps alive, which a profile of the
 * code itself does not show.
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
