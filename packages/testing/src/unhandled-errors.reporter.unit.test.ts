import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testFolder } from './test-folder';
import UnhandledErrorsReporter from './unhandled-errors.reporter';

describe('UnhandledErrorsReporter', () => {
  it('writes each unhandled error with the test vitest names, and removes the file after a run without one', () => {
    const outputFile = join(testFolder('unhandled-errors-'), 'reports', 'unhandled.json');
    const reporter = new UnhandledErrorsReporter({ outputFile });
    const frames = Array.from({ length: 30 }, (_, i) => `    at frame${i} (file.ts:${i}:1)`);
    const stack = ['error: deadlock detected', '    at run (file:///w/node_modules/@vitest/runner/dist/index.js:1:1)', ...frames].join('\n');
    reporter.onTestRunEnd([], [{ name: 'error', message: 'deadlock detected', stack, VITEST_TEST_PATH: '/a/b.int.test.ts', VITEST_TEST_NAME: 'goes again' }]);
    const written = JSON.parse(readFileSync(outputFile, 'utf8')) as unknown[];
    expect(written).toEqual([
      {
        name: 'error',
        message: 'deadlock detected',
        file: '/a/b.int.test.ts',
        test: 'goes again',
        stack: Array.from({ length: 12 }, (_, i) => `at frame${i} (file.ts:${i}:1)`),
      },
    ]);
    reporter.onTestRunEnd([], []);
    expect(existsSync(outputFile)).toBe(false);
  });
});
