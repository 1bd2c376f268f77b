import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryScenario, runSuite, startSdkTarget, testFolder, type SdkTarget } from '@earshot/testing';

const SDK = new URL('../../sdk/typescript/', import.meta.url).pathname;

interface VitestReport {
  testResults: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

/** The TypeScript SDK's own vitest suite against a live Earshot on Kafka, behind the fault proxy. */
describe('@earshot/sdk against a live Earshot', () => {
  let target: SdkTarget;

  beforeAll(async () => {
    target = await startSdkTarget('sdk-typescript');
  });
  afterAll(async () => target?.close());

  it('runs every scenario of sdk/scenarios.json, and they pass', async () => {
    const report = join(testFolder('earshot-sdk-ts-'), 'report.json');
    const run = await runSuite('npx', ['vitest', 'run', '--config', 'vitest.config.ts', '--reporter=json', `--outputFile=${report}`], {
      cwd: SDK,
      env: target.env,
      timeoutMs: 400_000,
    });
    const results = (JSON.parse(readFileSync(report, 'utf8')) as VitestReport).testResults.flatMap((file) =>
      file.assertionResults.map((test) => ({ name: test.fullName, passed: test.status === 'passed', failures: test.failureMessages })),
    );
    expect(results.length).toBeGreaterThanOrEqual(15);
    const failed = results.filter((r) => !r.passed);
    expect(failed, run.output.slice(-4_000)).toEqual([]);
    expectEveryScenario('typescript', results);
    expect(run.code).toBe(0);
  }, 420_000);
});
