#!/usr/bin/env node
// Runs the whole suite with vitest and ends with the line CI reads,
// `Tests: N passed, N failed`, derived from vitest's JSON report.
// The infrastructure is brought up first, here, so that when it cannot start
// the run stops at once with why, not with vitest's "No test files found".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const report = 'reports/vitest.json';
const unhandledReport = 'reports/unhandled-errors.json';
mkdirSync('reports', { recursive: true });
rmSync(report, { force: true });
rmSync(unhandledReport, { force: true });

const tsx = (args, options = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'packages/testing/src/local-infra/infra.ts', ...args], { encoding: 'utf8', ...options });

const up = tsx(['up', '--json', '--lean'], { stdio: ['ignore', 'pipe', 'inherit'] });
if (up.status !== 0) {
  console.log(`The test infrastructure did not start: ${up.error?.message ?? 'see the line above'}.`);
  console.log('Tests: 0 passed, 1 failed');
  process.exit(1);
}
const infra = JSON.parse(up.stdout.trim().split('\n').at(-1));
const started = Object.entries(infra.started)
  .filter(([, fresh]) => fresh)
  .map(([name]) => name);
const stopStarted = () => {
  if (started.length > 0) tsx(['down', ...started], { stdio: 'inherit' });
};
// An interrupted run still stops what it started.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => undefined);

// The whole suite only: a file named on the command line builds what it needs itself.
if (process.argv.length === 2) {
  console.error("[terraform] the provider tests' CLI: built once per machine (minutes), then reused");
  const cli = spawnSync(process.execPath, ['--import', 'tsx', 'iac/terraform-provider-earshot/tools/build-cli.ts'], { stdio: 'inherit' });
  if (cli.status !== 0) console.error('[terraform] the CLI could not be built here; the provider tests will say why');
}

const env = { ...process.env, KAFKA_BROKERS: infra.kafkaBrokers, DATABASE_URL: infra.databaseUrl };
const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
stopStarted();

if (!existsSync(report)) {
  console.log('vitest wrote no JSON report: the run did not complete.');
  console.log('Tests: 0 passed, 1 failed');
  process.exit(run.status || 1);
}
const results = JSON.parse(readFileSync(report, 'utf8'));
// A skipped or todo test is not a pass.
// A file whose tests all passed can still fail (a hook timed out): that is a failure too.
const failedSuites = results.testResults.filter((file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed')).length;
// An unhandled error fails the run though every test passed; vitest's account of it is far above, so it is repeated here.
const unhandled = existsSync(unhandledReport) ? JSON.parse(readFileSync(unhandledReport, 'utf8')) : [];
for (const error of unhandled) {
  console.log(`Unhandled ${error.name}: ${error.message}`);
  console.log(`  while running ${error.file ?? 'no file'} > ${error.test ?? 'no test'}`);
  for (const line of error.stack) console.log(`    ${line}`);
}
const passed = results.numPassedTests;
const failed = results.numFailedTests + failedSuites + unhandled.length;
const notRun = results.numPendingTests + results.numTodoTests;
if (notRun > 0) console.log(`${notRun} tests were skipped or left to do; they are not counted as passed.`);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(run.status ?? 1);
