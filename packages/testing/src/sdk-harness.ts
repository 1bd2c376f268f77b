import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { startEarshot, type TestEarshot } from './earshot';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

/** The scenario list every SDK runs (sdk/scenarios.json). */
export const SDK_SCENARIOS = (
  JSON.parse(readFileSync(new URL('../../../sdk/scenarios.json', import.meta.url), 'utf8')) as { scenarios: { id: string; what: string }[] }
).scenarios.map((scenario) => scenario.id);

/** A live Earshot for one SDK's suite: a fresh tenant, and the fault proxy in front of the server. */
export interface SdkTarget {
  earshot: TestEarshot;
  proxy: FaultProxy;
  /** What the SDK's suite reads: EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET, EARSHOT_FAULT_PROXY_URL, EARSHOT_TENANT_ID. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startSdkTarget(label: string): Promise<SdkTarget> {
  const earshot = await startEarshot(label);
  const tenant = await earshot.createTenant(`${label} tenant`);
  const proxy = await startFaultProxy(earshot.origin);
  return {
    earshot,
    proxy,
    env: {
      EARSHOT_API_KEY: tenant.apiKey,
      EARSHOT_BASE_URL: `${earshot.origin}/api/v1`,
      EARSHOT_WEBHOOK_SECRET: tenant.webhookSecret,
      EARSHOT_FAULT_PROXY_URL: proxy.url,
      EARSHOT_TENANT_ID: tenant.id,
    },
    close: async () => {
      await proxy.close();
      await earshot.stop();
    },
  };
}

/** Runs an SDK's own test command with the target's environment; answers its exit code and everything it printed. */
export function runSuite(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => (output += chunk.toString());
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The scenario ids a test name carries, as `[id]`. */
export function scenarioIdsOf(testName: string): string[] {
  return [...testName.matchAll(/\[([a-z0-9-]+)\]/g)].map((match) => match[1] ?? '');
}

/**
 * Every scenario of the list ran in this SDK's suite and passed: the SDKs
 * cannot drift apart by one of them leaving a scenario out.
 */
export function expectEveryScenario(sdk: string, results: readonly { name: string; passed: boolean }[]): void {
  const passed = new Set(results.filter((r) => r.passed).flatMap((r) => scenarioIdsOf(r.name)));
  const failed = new Set(results.filter((r) => !r.passed).flatMap((r) => scenarioIdsOf(r.name)));
  expect({ sdk, missing: SDK_SCENARIOS.filter((id) => !passed.has(id)), failed: [...failed] }).toEqual({ sdk, missing: [], failed: [] });
}
