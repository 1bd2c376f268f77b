import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callScript, type EarshotTenant, npmBin, run, startEarshot, type TestEarshot } from '@earshot/testing';
import { DESTRUCTIVE_FOLDER } from './postman-collection';
import { ROUTE_OPERATIONS } from './route-operations';

let earshot: TestEarshot;
let tenant: EarshotTenant;
let dir: string;

beforeAll(async () => {
  earshot = await startEarshot('postman');
  tenant = await earshot.createTenant();
  const start = Date.parse('2026-02-01T08:00:00.000Z');
  await earshot.project(
    Array.from({ length: 3 }, (_, i) => callScript({ tenant: tenant.id, providerCallId: `postman-${i}`, turns: 2, startMs: start + i * 60_000 })).flat(),
  );
  dir = mkdtempSync(join(tmpdir(), 'earshot-postman-'));
}, 120_000);
afterAll(async () => {
  await earshot?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface NewmanReport {
  run: {
    stats: Record<'requests' | 'assertions' | 'prerequestScripts' | 'testScripts', { total: number; failed: number }>;
    executions: { item: { name: string }; assertions?: { assertion: string; error?: unknown }[] }[];
    failures: unknown[];
  };
}

describe('GET /postman under newman', () => {
  it('runs green against a seeded instance given only baseUrl, apiKey and webhookSecret, destructive requests skipped', async () => {
    const collection = await (await fetch(`${earshot.origin}/postman`)).json();
    const file = join(dir, 'earshot.postman_collection.json');
    const report = join(dir, 'newman.json');
    writeFileSync(file, JSON.stringify(collection));
    const result = await run(npmBin('newman'), [
      'run',
      file,
      ...['--env-var', `baseUrl=${earshot.origin}`, '--env-var', `apiKey=${tenant.apiKey}`, '--env-var', `webhookSecret=${tenant.webhookSecret}`],
      ...['--reporters', 'cli,json', '--reporter-json-export', report, '--color', 'off'],
    ]);
    expect(result.code, result.output).toBe(0);

    const { stats, executions, failures } = (JSON.parse(readFileSync(report, 'utf8')) as NewmanReport).run;
    expect(failures).toEqual([]);
    expect(stats.assertions.failed + stats.requests.failed + stats.testScripts.failed + stats.prerequestScripts.failed).toBe(0);
    expect(stats.requests.total).toBeGreaterThanOrEqual(30);
    // Every request that ran asserted its status and its body, and both held.
    for (const execution of executions) {
      expect(execution.assertions?.length, execution.item.name).toBeGreaterThanOrEqual(1);
      expect(execution.assertions?.filter((a) => a.error) ?? [], execution.item.name).toEqual([]);
    }
    const folders = (collection as { item: { name: string; item: { name: string }[] }[] }).item;
    expect(folders.map((f) => f.name)).toEqual(expect.arrayContaining(['Calls', 'Outcomes', 'Ingest', 'Keys', DESTRUCTIVE_FOLDER]));
    const destructive = folders.find((f) => f.name === DESTRUCTIVE_FOLDER)?.item.map((i) => i.name) ?? [];
    expect(destructive.length).toBeGreaterThanOrEqual(5);
    const ran = new Set(executions.map((e) => e.item.name));
    expect(destructive.filter((name) => ran.has(name))).toEqual([]);
    // The ids flowed: the call listed first was read back, the incident created was changed.
    expect(ran).toContain(ROUTE_OPERATIONS['GET /api/v1/calls/:id']?.summary);
    expect(ran).toContain(ROUTE_OPERATIONS['PATCH /api/v1/incidents/:id']?.summary);
    console.log(
      result.output
        .split('\n')
        .filter((line) => /│\s+(requests|assertions)\s/.test(line))
        .join('\n'),
    );
  }, 180_000);
});
