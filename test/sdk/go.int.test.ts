import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectEveryScenario, runSuite, startSdkTarget, type SdkTarget } from '@earshot/testing';

const SDK = resolve(new URL('../../sdk/go', import.meta.url).pathname);
const TOOLS = resolve(new URL('../../.cache/go-bin', import.meta.url).pathname);
const STATICCHECK = 'honnef.co/go/tools/cmd/staticcheck@v0.8.2';

interface GoTestEvent {
  Action: string;
  Test?: string;
  Output?: string;
}

/** `go test -json` events: one per line, a test's result in its pass or fail action, what it printed in output ones. */
function goTestEvents(output: string): GoTestEvent[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as GoTestEvent);
}

function goTestResults(events: readonly GoTestEvent[]): { name: string; passed: boolean }[] {
  return events
    .filter((event) => event.Test !== undefined && (event.Action === 'pass' || event.Action === 'fail'))
    .map((event) => ({ name: event.Test ?? '', passed: event.Action === 'pass' }));
}

/** What the failed tests printed (their t.Fatal lines among it): the run's tail is the packages' summary. */
function failuresOf(events: readonly GoTestEvent[], results: readonly { name: string; passed: boolean }[]): string {
  const failed = new Set(results.filter((r) => !r.passed).map((r) => r.name));
  return events
    .filter((event) => event.Action === 'output' && event.Test !== undefined && failed.has(event.Test))
    .map((event) => event.Output ?? '')
    .join('')
    .slice(-4_000);
}

function tail(output: string): string {
  return output.split('\n').slice(-60).join('\n');
}

describe('the Go SDK against a live Earshot', () => {
  let target: SdkTarget;
  beforeAll(async () => {
    target = await startSdkTarget('sdk-go');
  });
  afterAll(async () => {
    await target?.close();
  });

  test('go vet and staticcheck find nothing', async () => {
    const vet = await runSuite('go', ['vet', './...'], { cwd: SDK, env: {}, timeoutMs: 600_000 });
    expect(vet, tail(vet.output)).toMatchObject({ code: 0 });
    if (!existsSync(join(TOOLS, 'staticcheck'))) {
      const install = await runSuite('go', ['install', STATICCHECK], { cwd: SDK, env: { GOBIN: TOOLS }, timeoutMs: 600_000 });
      expect(install, tail(install.output)).toMatchObject({ code: 0 });
    }
    const check = await runSuite(join(TOOLS, 'staticcheck'), ['./...'], { cwd: SDK, env: {}, timeoutMs: 600_000 });
    expect(check, tail(check.output)).toMatchObject({ code: 0, output: '' });
  }, 1_200_000);

  test('go test -race runs every scenario of sdk/scenarios.json and each passes', async () => {
    const run = await runSuite('go', ['test', '-race', '-count=1', '-json', './...'], { cwd: SDK, env: target.env, timeoutMs: 900_000 });
    const events = goTestEvents(run.output);
    const results = goTestResults(events);
    expect(results.length, tail(run.output)).toBeGreaterThan(0);
    expect(
      results.filter((r) => !r.passed).map((r) => r.name),
      failuresOf(events, results),
    ).toEqual([]);
    expectEveryScenario('go', results);
    expect(run.code, tail(run.output)).toBe(0);
  }, 1_000_000);

  test('the README quick start is the example program, and it runs against the live server', async () => {
    const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
    const example = readFileSync(join(SDK, 'examples/quickstart/main.go'), 'utf8');
    expect(readme).toContain('```go\n' + example + '```');
    const run = await runSuite('go', ['run', './examples/quickstart'], { cwd: SDK, env: target.env, timeoutMs: 300_000 });
    expect(run, tail(run.output)).toMatchObject({ code: 0 });
    expect(run.output).toMatch(/^outcome [0-9a-f-]{36}$/m);
    expect(run.output).toContain('not found: no call with id no-such-call');
  }, 400_000);
});
