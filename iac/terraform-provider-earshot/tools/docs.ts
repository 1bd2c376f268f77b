/**
 * Generates docs/ (the registry's layout) with HashiCorp's tfplugindocs,
 * from the provider's schema as the CLI reports it and from examples/:
 *
 *   npx tsx iac/terraform-provider-earshot/tools/docs.ts
 *
 * tfplugindocs would download Terraform to read the schema; it is given
 * the schema from `providers schema -json` of our CLI instead.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { devProvider, PROVIDER_DIR } from './dev-provider';
import { terraformCli } from './terraform-cli';

const run = promisify(execFile);

const TFPLUGINDOCS = 'github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@v0.25.0';

/** The provider's schema as the CLI reports it, under the name tfplugindocs looks for. */
async function providerSchema(work: string): Promise<string> {
  const cli = await terraformCli();
  const config = await devProvider(work);
  const root = join(work, 'schema');
  cpSync(join(PROVIDER_DIR, 'examples', 'provider'), root, { recursive: true });
  const { stdout } = await run(cli.path, ['providers', 'schema', '-json'], {
    cwd: root,
    env: { ...process.env, TF_CLI_CONFIG_FILE: config },
    maxBuffer: 1 << 26,
  });
  const document = JSON.parse(stdout) as { provider_schemas: Record<string, unknown> };
  const [schema] = Object.entries(document.provider_schemas)
    .filter(([address]) => address.endsWith('/earshot/earshot'))
    .map(([, value]) => value);
  if (!schema) throw new Error(`providers schema -json named no earshot/earshot: ${Object.keys(document.provider_schemas).join(', ')}`);
  const path = join(work, 'schema.json');
  writeFileSync(path, JSON.stringify({ ...document, provider_schemas: { earshot: schema } }));
  return path;
}

/** Writes the docs for the provider in `providerDir` (its examples/ and templates/) into `providerDir`/docs. */
export async function generateDocs(providerDir: string = PROVIDER_DIR): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'earshot-docs-'));
  try {
    const schema = await providerSchema(work);
    await run(
      'go',
      [
        'run',
        TFPLUGINDOCS,
        'generate',
        '--provider-name',
        'earshot',
        '--rendered-provider-name',
        'Earshot',
        '--providers-schema',
        schema,
        '--provider-dir',
        providerDir,
      ],
      {
        cwd: providerDir,
        maxBuffer: 1 << 24,
      },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** A copy of what tfplugindocs reads (examples/, templates/), for generating elsewhere than docs/. */
export function docsSources(into: string): void {
  for (const folder of ['examples', 'templates']) {
    const from = join(PROVIDER_DIR, folder);
    if (existsSync(from)) cpSync(from, join(into, folder), { recursive: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await generateDocs();
