export interface PeriodicTask {
  /** Stops the timer and waits for the round under way. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs`, off every request's path. A tick that
 * comes while the last round still runs is skipped, so rounds never overlap
 * nor pile up behind a slow one; a failed round is reported and the next
 * tick tries again.
 */
export function runEvery(intervalMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void): PeriodicTask {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= task()
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
