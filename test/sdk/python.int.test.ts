import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryScenario, pythonTools, runSuite, startSdkTarget, testFolder, type SdkTarget } from '@earshot/testing';

const SDK = new URL('../../sdk/python/', import.meta.url).pathname;

/** Each <testcase> of a JUnit report: its name, and whether it passed (no failure, error or skip inside). */
function junitResults(xml: string): { name: string; passed: boolean }[] {
  return [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((match) => {
    const attributes = match[1] ?? '';
    const name = /\bname="([^"]*)"/.exec(attributes)?.[1] ?? '';
    const classname = /\bclassname="([^"]*)"/.exec(attributes)?.[1] ?? '';
    return { name: `${classname} ${name}`, passed: !/<(failure|error|skipped)\b/.test(match[3] ?? '') };
  });
}

/** The Python SDK's own pytest suite, installed from its folder into a project-local venv, against a live Earshot on Kafka behind the fault proxy. */
describe('earshot (Python) against a live Earshot', () => {
  let target: SdkTarget;
  let bin: string;

  // A cold venv installs pydantic, pytest and mypy from PyPI: minutes on two busy cores.
  beforeAll(async () => {
    bin = pythonTools('sdk-python', ['-e', `${SDK}[dev]`]);
    target = await startSdkTarget('sdk-python');
  }, 600_000);
  afterAll(async () => target?.close());

  it('runs every scenario of sdk/scenarios.json under pytest, and they pass', async () => {
    const report = join(testFolder('earshot-sdk-py-'), 'junit.xml');
    const run = await runSuite(join(bin, 'python'), ['-m', 'pytest', '-p', 'no:cacheprovider', `--junitxml=${report}`, '-q'], {
      cwd: SDK,
      env: target.env,
      timeoutMs: 400_000,
    });
    const results = junitResults(readFileSync(report, 'utf8'));
    expect(results.length).toBeGreaterThanOrEqual(15);
    expect(
      results.filter((r) => !r.passed),
      run.output.slice(-4_000),
    ).toEqual([]);
    expectEveryScenario('python', results);
    expect(run.code).toBe(0);
  }, 420_000);

  it('type-checks clean under mypy --strict', async () => {
    const run = await runSuite(join(bin, 'mypy'), [], { cwd: SDK, env: {}, timeoutMs: 300_000 });
    expect(run.output).toMatch(/Success: no issues found/);
    expect(run.code).toBe(0);
  }, 320_000);
});
