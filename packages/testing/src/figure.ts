import type { TaskMeta } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** What a test measured, for the reliability table (`npm run reliability`): e.g. `0 of 72 victim requests failed`. */
    figure?: string;
  }
}

/** Records the figure a test measured; vitest's JSON report carries it to the reliability table. */
export function recordFigure(task: { meta: TaskMeta }, figure: string): void {
  task.meta.figure = figure;
}
