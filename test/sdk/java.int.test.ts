import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectEveryScenario, runSuite, startSdkTarget, type SdkTarget } from '@earshot/testing';

const SDK = resolve(new URL('../../sdk/java', import.meta.url).pathname);
const REPORTS = join(SDK, 'target', 'surefire-reports');

const ENTITIES: Record<string, string> = { '&apos;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&amp;': '&' };

/** Surefire's XML reports: a test case passed unless it holds a failure, an error or a skip. */
function surefireResults(): { name: string; passed: boolean }[] {
  if (!existsSync(REPORTS)) return [];
  return readdirSync(REPORTS)
    .filter((file) => file.startsWith('TEST-') && file.endsWith('.xml'))
    .flatMap((file) => readFileSync(join(REPORTS, file), 'utf8').split('<testcase').slice(1))
    .map((testcase) => {
      const end = testcase.search(/\/>|<\/testcase>/);
      const body = testcase.slice(0, end === -1 ? undefined : end);
      const name = (/\bname="([^"]*)"/.exec(body)?.[1] ?? '').replace(/&[a-z]+;/g, (entity) => ENTITIES[entity] ?? entity);
      return { name, passed: !/<(failure|error|skipped)\b/.test(body) };
    });
}

function tail(output: string): string {
  return output.split('\n').slice(-60).join('\n');
}

describe('the Java SDK against a live Earshot', () => {
  let target: SdkTarget;
  beforeAll(async () => {
    target = await startSdkTarget('sdk-java');
  });
  afterAll(async () => {
    await target?.close();
  });

  test('mvn test runs every scenario of sdk/scenarios.json and each passes', async () => {
    rmSync(REPORTS, { recursive: true, force: true });
    const run = await runSuite('mvn', ['-q', '-B', 'test'], { cwd: SDK, env: target.env, timeoutMs: 900_000 });
    const results = surefireResults();
    expect(results.length, tail(run.output)).toBeGreaterThan(0);
    // Maven prints each failure's assertion at the end of its output: a failed scenario says why, not only which.
    expect(
      results.filter((r) => !r.passed).map((r) => r.name),
      tail(run.output),
    ).toEqual([]);
    expectEveryScenario('java', results);
    expect(run.code, tail(run.output)).toBe(0);
  }, 1_000_000);

  test('the README quick start is the example program, and it runs against the live server', async () => {
    const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
    const example = readFileSync(join(SDK, 'src/test/java/dev/earshot/examples/QuickStart.java'), 'utf8');
    expect(readme).toContain('```java\n' + example + '```');
    const run = await runSuite(
      'mvn',
      [
        '-q',
        '-B',
        'test-compile',
        'org.codehaus.mojo:exec-maven-plugin:3.6.4:java',
        '-Dexec.mainClass=dev.earshot.examples.QuickStart',
        '-Dexec.classpathScope=test',
      ],
      { cwd: SDK, env: target.env, timeoutMs: 600_000 },
    );
    expect(run, tail(run.output)).toMatchObject({ code: 0 });
    expect(run.output).toMatch(/^outcome [0-9a-f-]{36}$/m);
    expect(run.output).toContain('not found: 404 NOT_FOUND');
  }, 700_000);
});
