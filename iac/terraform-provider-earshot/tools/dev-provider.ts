/**
 * The provider built from this folder and a CLI configuration whose
 * dev_overrides point `earshot/earshot` at it, as a provider developer runs
 * one: no registry, no `init`.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const PROVIDER_DIR = resolve(new URL('..', import.meta.url).pathname);

/** Builds terraform-provider-earshot into `dir`/bin and answers the path of a CLI configuration that uses it. */
export async function devProvider(dir: string): Promise<string> {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  await run('go', ['build', '-o', join(bin, 'terraform-provider-earshot'), '.'], { cwd: PROVIDER_DIR, maxBuffer: 1 << 24 });
  const config = join(dir, 'cli.tfrc');
  writeFileSync(config, `provider_installation {\n  dev_overrides {\n    "earshot/earshot" = ${JSON.stringify(bin)}\n  }\n  direct {}\n}\n`);
  return config;
}
