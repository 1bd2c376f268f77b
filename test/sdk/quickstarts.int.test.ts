import { copyFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTopology } from '../e2e/topologies';
import { pythonTools, runSuite, testFolder } from '@earshot/testing';

const ROOT = new URL('../../', import.meta.url).pathname;
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** What each quick start prints when every step worked. */
const STEPS = [
  /^sent 100 events: 100 accepted, 0 duplicates, 0 dead-lettered$/m,
  /^listed 20 calls of quickstart-\w+$/m,
  /^call [0-9a-f-]{36}: completed, 1 turn\(s\), 1 transcript line\(s\)$/m,
  /^outcome \S+ recorded$/m,
  /^no such call: 404 NOT_FOUND$/m,
];

/**
 * The Done-when of the SDKs: each README's quick start, run as a new user
 * would (the SDK installed from its folder into a fresh project, the three
 * variables set) against `earshot serve` with nothing configured, as
 * `npm start` runs it.
 */
describe('the SDK quick starts against earshot serve (embedded)', () => {
  let embedded: Awaited<ReturnType<typeof embeddedTopology>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    embedded = await embeddedTopology();
    const demo = JSON.parse(readFileSync(join(embedded.dataDir, 'demo.json'), 'utf8')) as { apiKey: string; webhookSecret: string };
    env = { EARSHOT_API_KEY: demo.apiKey, EARSHOT_BASE_URL: `${embedded.url('query')}/api/v1`, EARSHOT_WEBHOOK_SECRET: demo.webhookSecret };
  }, 180_000);
  afterAll(async () => embedded?.close());

  it('TypeScript: installed from sdk/typescript into a fresh ESM project, examples/quickstart.ts does all five steps', async () => {
    const project = testFolder('earshot-quickstart-ts-');
    const npm = (args: string[]) => runSuite('npm', args, { cwd: project, env: {}, timeoutMs: 180_000 });
    expect((await npm(['init', '-y'])).code).toBe(0);
    expect((await npm(['pkg', 'set', 'type=module'])).code).toBe(0);
    const install = await npm(['install', '--install-links', '--no-audit', '--no-fund', join(ROOT, 'sdk', 'typescript')]);
    expect(install.code, install.output).toBe(0);
    copyFileSync(join(ROOT, 'sdk', 'typescript', 'examples', 'quickstart.ts'), join(project, 'quickstart.ts'));
    const run = await runSuite(TSX, ['quickstart.ts'], { cwd: project, env, timeoutMs: 120_000 });
    expect(run.code, run.output).toBe(0);
    for (const step of STEPS) expect(run.output).toMatch(step);
  }, 300_000);

  it('Python: installed from sdk/python into its own venv, examples/quickstart.py does all five steps', async () => {
    // Editable, so a later change to the SDK's sources is what the quick start runs (the venv is kept between runs).
    const bin = pythonTools('sdk-quickstart', ['-e', join(ROOT, 'sdk', 'python')]);
    const run = await runSuite(join(bin, 'python'), [join(ROOT, 'sdk', 'python', 'examples', 'quickstart.py')], { cwd: tmpdir(), env, timeoutMs: 120_000 });
    expect(run.code, run.output).toBe(0);
    for (const step of STEPS) expect(run.output).toMatch(step);
  }, 300_000);
});
