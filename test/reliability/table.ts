import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { PROMISES, type ReliabilityPromise } from './promises';

/** What vitest's JSON report says of one test (reports/vitest.json, written by every run). */
interface ReportedTest {
  title: string;
  status: string;
  meta?: { figure?: string };
}
interface Report {
  testResults: { name: string; assertionResults: ReportedTest[] }[];
}

const REPORT = 'reports/vitest.json';

/**
 * `npm run reliability`: runs the tests that keep issue #20's promises
 * (through scripts/test.mjs, which brings up Kafka and PostgreSQL) and
 * prints one row per promise, PASS or FAIL with its figure. A promise
 * with no test or a known gap is FAIL, whatever its tests do.
 */
const files = [...new Set(PROMISES.flatMap((promise) => promise.keptBy.map((kept) => kept.file)))];
spawnSync(process.execPath, ['scripts/test.mjs', ...files], { stdio: 'inherit' });

const report = JSON.parse(readFileSync(REPORT, 'utf8')) as Report;
const results = new Map<string, ReportedTest>();
for (const file of report.testResults) for (const test of file.assertionResults) results.set(`${relative(process.cwd(), file.name)}\n${test.title}`, test);

function row(promise: ReliabilityPromise): { passed: boolean; figure: string } {
  const tests = promise.keptBy.map((kept) => ({ kept, result: results.get(`${kept.file}\n${kept.title}`) }));
  const failing = tests.filter(({ result }) => result?.status !== 'passed');
  const figures = tests.flatMap(({ result }) => (result?.meta?.figure ? [result.meta.figure] : []));
  const passed = tests.length > 0 && failing.length === 0 && promise.gap === undefined;
  const said = [
    ...failing.map(({ kept, result }) => `${result?.status ?? 'not run'}: ${kept.title}`),
    ...(promise.gap ? [`gap: ${promise.gap}`] : []),
    ...figures,
    `${tests.length - failing.length} of ${tests.length} tests passed`,
  ];
  return { passed, figure: said.join('; ') };
}

const rows = PROMISES.map((promise, index) => ({ index: index + 1, promise: promise.promise, ...row(promise) }));
console.log('\n| # | promise | result | figure |\n|---|---|---|---|');
for (const { index, promise, passed, figure } of rows) console.log(`| ${index} | ${promise} | ${passed ? 'PASS' : 'FAIL'} | ${figure} |`);
const passedRows = rows.filter((r) => r.passed).length;
console.log(`\nReliability: ${passedRows} PASS, ${rows.length - passedRows} FAIL`);
process.exit(passedRows === rows.length ? 0 : 1);
