import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, SerializedError } from 'vitest/node';

/** What scripts/test.mjs prints last: vitest's own account of an unhandled error scrolls far above the summary CI keeps. */
interface UnhandledError {
  name: string;
  message: string;
  /** The file and test vitest names as running when it happened: in a shared worker, not always its cause. */
  file: string | undefined;
  test: string | undefined;
  stack: string[];
}

const STACK_LINES = 12;

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function unhandledErrorOf(error: SerializedError): UnhandledError {
  return {
    name: error.name ?? 'Error',
    message: error.message,
    file: textOf(error.VITEST_TEST_PATH),
    test: textOf(error.VITEST_TEST_NAME),
    stack: (error.stack ?? '')
      .split('\n')
      .slice(1)
      .map((line) => line.trim())
      .filter((line) => !line.includes('node_modules/@vitest/') && line !== 'at new Promise (<anonymous>)')
      .slice(0, STACK_LINES),
  };
}

/**
 * Writes the run's unhandled errors (uncaught exceptions, unhandled
 * rejections) to a JSON file, or removes it when there were none: vitest
 * fails such a run while every test passed, and its JSON report leaves them out.
 */
export default class UnhandledErrorsReporter implements Reporter {
  constructor(private readonly options: { outputFile: string }) {}

  onTestRunEnd(_modules: unknown, errors: ReadonlyArray<SerializedError>): void {
    const { outputFile } = this.options;
    rmSync(outputFile, { force: true });
    if (errors.length === 0) return;
    mkdirSync(dirname(outputFile), { recursive: true });
    writeFileSync(outputFile, JSON.stringify(errors.map(unhandledErrorOf), null, 2));
  }
}
