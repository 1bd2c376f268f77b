import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../iac/terraform-provider-earshot/internal/contract/generate';
import { devProvider, PROVIDER_DIR } from '../../iac/terraform-provider-earshot/tools/dev-provider';
import { docsSources, generateDocs } from '../../iac/terraform-provider-earshot/tools/docs';
import { terraformCli, type TerraformCli } from '../../iac/terraform-provider-earshot/tools/terraform-cli';
import { startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';

const STATICCHECK = 'honnef.co/go/tools/cmd/staticcheck@v0.8.2';

/** The acceptance tests every resource and data source has; a missing or skipped one fails the run. */
const ACCEPTANCE_TESTS = [
  'TestAccAPIKey',
  'TestAccAlertRule',
  'TestAccAlertWebhook',
  'TestAccDeployment',
  'TestAccWebhookSecretRotation',
  'TestAccDataSources',
  'TestAccValidationMirrorsAPI',
];

interface GoTestEvent {
  Action: string;
  Test?: string;
  Output?: string;
}

/**
 * A command's exit code and everything it printed; never rejects on a non-zero exit. Asynchronous:
 * the Earshot it talks to runs in this process, and a synchronous spawn would stop it answering.
 */
function command(file: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('the Terraform/OpenTofu provider (iac/terraform-provider-earshot)', () => {
  let cli: TerraformCli;
  let earshot: TestEarshot;
  let acceptanceTenant: EarshotTenant;
  let exampleTenant: EarshotTenant;
  let work: string;
  let cliConfig: string;

  beforeAll(async () => {
    // Built by `npm test` before the suite (tools/build-cli.ts); a run of this file alone on a fresh machine builds it here.
    cli = await terraformCli();
    if (cli.builtSeconds > 0) console.log(`[terraform] built ${cli.version} from the Go module proxy in ${cli.builtSeconds} s`);
    earshot = await startEarshot('terraform');
    acceptanceTenant = await earshot.createTenant('Terraform acceptance');
    exampleTenant = await earshot.createTenant('Terraform example');
    work = mkdtempSync(join(tmpdir(), 'earshot-terraform-'));
    cliConfig = await devProvider(work);
  }, 25 * 60_000);
  afterAll(async () => {
    await earshot?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const api = (tenant: EarshotTenant, method: string, path: string, body?: unknown) =>
    fetch(`${earshot.origin}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${tenant.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it(
    'is go vet and staticcheck clean, and its validation rules are the ones generate.ts makes from the zod contracts',
    async () => {
      const vet = await command('go', ['vet', './...'], { cwd: PROVIDER_DIR });
      expect(vet, vet.output).toMatchObject({ code: 0 });
      const staticcheck = await command('go', ['run', STATICCHECK, './...'], { cwd: PROVIDER_DIR });
      // staticcheck exits 1 on any finding; go run may first say what it downloads.
      expect(staticcheck, staticcheck.output).toMatchObject({ code: 0 });
      const formatted = spawnSync('gofmt', [], { input: generate(), encoding: 'utf8' });
      expect(formatted.stdout).toBe(readFileSync(join(PROVIDER_DIR, 'internal/contract/contract_gen.go'), 'utf8'));
    },
    10 * 60_000,
  );

  it(
    'passes its unit tests and its acceptance tests (terraform-plugin-testing, the CLI, a live Earshot), none skipped',
    async () => {
      const result = await command('go', ['test', '-json', '-count=1', '-timeout=15m', './...'], {
        cwd: PROVIDER_DIR,
        env: {
          TF_ACC: '1',
          TF_ACC_TERRAFORM_PATH: cli.path,
          TF_ACC_PROVIDER_NAMESPACE: 'earshot',
          TF_ACC_PROVIDER_HOST: cli.registryHost,
          TF_CLI_CONFIG_FILE: cli.emptyConfig,
          EARSHOT_BASE_URL: `${earshot.origin}/api/v1`,
          EARSHOT_API_KEY: acceptanceTenant.apiKey,
        },
      });
      const events = result.output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as GoTestEvent);
      const outcome = (action: string) => events.filter((e) => e.Test && e.Action === action).map((e) => e.Test ?? '');
      const failedOutput = events
        .filter((e) => e.Action === 'output' && e.Test && outcome('fail').includes(e.Test))
        .map((e) => e.Output)
        .join('');
      expect({ failed: outcome('fail'), skipped: outcome('skip') }, failedOutput || result.output.slice(-4_000)).toEqual({ failed: [], skipped: [] });
      expect(outcome('pass')).toEqual(expect.arrayContaining([...ACCEPTANCE_TESTS, 'TestStringRulesAreTheAPIs', 'TestAKeyRotatedElsewhereMarksTheTrigger']));
      expect(result.code).toBe(0);
      console.log(`[terraform] ${outcome('pass').length} Go tests passed with ${cli.version}`);
    },
    20 * 60_000,
  );

  it(
    'applies examples/complete, then plans no change, shows a change made through the REST API as drift, and destroys it',
    async () => {
      const dir = join(work, 'complete');
      cpSync(join(PROVIDER_DIR, 'examples', 'complete'), dir, { recursive: true });
      const tofu = (...args: string[]) =>
        command(cli.path, [...args, '-no-color', '-input=false'], {
          cwd: dir,
          env: { TF_CLI_CONFIG_FILE: cliConfig, EARSHOT_BASE_URL: `${earshot.origin}/api/v1`, EARSHOT_API_KEY: exampleTenant.apiKey },
        });

      const applied = await tofu('apply', '-auto-approve');
      expect(applied, applied.output).toMatchObject({ code: 0 });
      expect(applied.output).toContain('Resources: 5 added, 0 changed, 0 destroyed.');
      const rules = (await (await api(exampleTenant, 'GET', '/alerts/rules')).json()) as { items: { id: string; threshold: number }[] };
      expect(rules.items.map((r) => r.id).sort()).toEqual(['failed-calls', 'p95-latency']);
      const keys = (await (await api(exampleTenant, 'GET', '/keys')).json()) as { items: { id: string; name: string; status: string }[] };
      const ci = keys.items.find((k) => k.name === 'ci');
      expect(ci?.status).toBe('active');
      expect(await (await api(exampleTenant, 'GET', '/alerts/webhook')).json()).toMatchObject({
        url: 'https://hooks.example.com/earshot/alerts',
        enabled: true,
      });
      expect(await (await api(exampleTenant, 'GET', '/deployments/agent_support-v42')).json()).toMatchObject({
        deployment: { agent: 'agent_support', version: 'v42' },
      });

      const settled = await tofu('plan', '-detailed-exitcode');
      expect(settled, settled.output).toMatchObject({ code: 0 });
      expect(settled.output).toContain('No changes.');

      expect((await api(exampleTenant, 'PATCH', '/alerts/rules/failed-calls', { threshold: 10 })).status).toBe(200);
      expect((await api(exampleTenant, 'PUT', '/alerts/webhook', { url: 'https://elsewhere.example.com/hook', enabled: false })).status).toBe(200);
      const drifted = await tofu('plan', '-detailed-exitcode');
      expect(drifted, drifted.output).toMatchObject({ code: 2 });
      expect(drifted.output).toMatch(/earshot_alert_rule\.failed_calls will be updated in-place[\s\S]*threshold\s+= 10 -> 5/);
      expect(drifted.output).toMatch(/earshot_alert_webhook\.pager will be updated in-place/);
      expect(drifted.output).toContain('Plan: 0 to add, 2 to change, 0 to destroy.');

      const destroyed = await tofu('destroy', '-auto-approve');
      expect(destroyed, destroyed.output).toMatchObject({ code: 0 });
      expect(destroyed.output).toContain('Resources: 5 destroyed.');
      expect((await (await api(exampleTenant, 'GET', '/alerts/rules')).json()) as object).toMatchObject({ items: [] });
      expect(await (await api(exampleTenant, 'GET', `/keys/${ci?.id}`)).json()).toMatchObject({ key: { status: 'revoked' } });
      expect(await (await api(exampleTenant, 'GET', '/alerts/webhook')).json()).toMatchObject({ url: null });
      // A deployment is history: Earshot has no deletion, the destroy says so and the record stays.
      expect(destroyed.output).toContain('The deployment stays in Earshot');
      expect((await api(exampleTenant, 'GET', '/deployments/agent_support-v42')).status).toBe(200);
    },
    5 * 60_000,
  );

  it(
    'has examples the CLI validates against the provider’s schema',
    async () => {
      const folders = [
        'complete',
        'provider',
        ...['resources', 'data-sources'].flatMap((kind) => readdirSync(join(PROVIDER_DIR, 'examples', kind)).map((name) => `${kind}/${name}`)),
      ];
      for (const folder of folders) {
        const dir = join(work, 'validate', folder);
        cpSync(join(PROVIDER_DIR, 'examples', folder), dir, { recursive: true });
        // The docs' snippets leave out the terraform block a whole configuration has.
        const declared = readdirSync(dir).some((file) => readFileSync(join(dir, file), 'utf8').includes('required_providers'));
        if (!declared) writeFileSync(join(dir, 'versions.tf'), 'terraform {\n  required_providers {\n    earshot = { source = "earshot/earshot" }\n  }\n}\n');
        const validated = await command(cli.path, ['validate', '-no-color'], { cwd: dir, env: { TF_CLI_CONFIG_FILE: cliConfig } });
        expect({ folder, ...validated }, validated.output).toMatchObject({ folder, code: 0 });
      }
      expect(folders.length).toBe(10);
    },
    2 * 60_000,
  );

  it(
    'has docs/ in the registry layout exactly as tfplugindocs generates them',
    async () => {
      const copy = join(work, 'docs-check');
      docsSources(copy);
      await generateDocs(copy);
      const files = (root: string): string[] =>
        readdirSync(root, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => relative(root, join(entry.parentPath, entry.name)))
          .sort();
      const generated = files(join(copy, 'docs'));
      expect(generated).toEqual(files(join(PROVIDER_DIR, 'docs')));
      expect(generated).toEqual(expect.arrayContaining(['index.md', 'resources/api_key.md', 'data-sources/metrics.md']));
      for (const file of generated) expect(readFileSync(join(copy, 'docs', file), 'utf8'), file).toBe(readFileSync(join(PROVIDER_DIR, 'docs', file), 'utf8'));
    },
    10 * 60_000,
  );
});
