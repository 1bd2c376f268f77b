#!/usr/bin/env node
// Runs the whole suite with vitest and ends with the line CI reads,
// `Tests: N passed, N failed`, derived from vitest's JSON report.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const report = 'reports/vitest.json';
mkdirSync('reports', { recursive: true });
rmSync(report, { force: true });

const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit' });

if (!existsSync(report)) {
  console.log('vitest wrote no JSON report: the run did not complete.');
  console.log('Tests: 0 passed, 1 failed');
  process.exit(run.status || 1);
}
const results = JSON.parse(readFileSync(report, 'utf8'));
// A skipped or todo test is not a pass.
// A file whose tests all passed can still fail (a hook timed out): that is a failure too.
const failedSuites = results.testResults.filter((file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed')).length;
const passed = results.numPassedTests;
const failed = results.numFailedTests + failedSuites;
const notRun = results.numPendingTests + results.numTodoTests;
if (notRun > 0) console.log(`${notRun} tests were skipped or left to do; they are not counted as passed.`);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(run.status ?? 1);
