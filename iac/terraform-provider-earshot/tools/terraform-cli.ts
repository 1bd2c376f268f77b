/**
 * A Terraform-compatible CLI for the provider's tests and docs. Neither
 * Terraform's nor OpenTofu's release downloads are reachable from our
 * machines, but OpenTofu's source is a Go module on the Go module proxy, so
 * it is built from there once and kept in the user's cache folder, beside Go's
 * own (~/.cache/earshot/opentofu/<version>/tofu): every clone on the machine,
 * CI's fresh one too, then finds it built.
 * `go install …/cmd/tofu@version` refuses it (its go.mod has a replace
 * directive), so the module is downloaded and built inside its own folder.
 * EARSHOT_TERRAFORM_CLI names another CLI instead (a terraform binary).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildLock } from './build-lock';

const run = promisify(execFile);

const OPENTOFU_MODULE = 'github.com/opentofu/opentofu';
const OPENTOFU_VERSION = 'v1.12.6';

const REPOSITORY = resolve(new URL('../../..', import.meta.url).pathname);
const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'earshot', 'opentofu', OPENTOFU_VERSION);

export interface TerraformCli {
  path: string;
  /** `OpenTofu v1.12.6` or `Terraform v1.11.4`. */
  version: string;
  /** Where the CLI resolves `earshot/earshot`: TF_ACC_PROVIDER_HOST for terraform-plugin-testing. */
  registryHost: 'registry.opentofu.org' | 'registry.terraform.io';
  /** A CLI configuration with nothing in it, so a user's ~/.terraformrc plays no part. */
  emptyConfig: string;
  /** Seconds this call spent building OpenTofu; 0 when it was already built. */
  builtSeconds: number;
}

/** Builds OpenTofu from the Go module proxy unless it is built already; answers its path and the seconds spent. */
async function openTofu(): Promise<{ path: string; builtSeconds: number }> {
  const path = join(CACHE, 'tofu');
  if (existsSync(path)) return { path, builtSeconds: 0 };
  const release = await buildLock(CACHE);
  try {
    if (existsSync(path)) return { path, builtSeconds: 0 };
    const started = Date.now();
    const downloaded = await run('go', ['mod', 'download', '-json', `${OPENTOFU_MODULE}@${OPENTOFU_VERSION}`], { maxBuffer: 1 << 24 }).catch((error: Error) => {
      throw new Error(`go mod download ${OPENTOFU_MODULE}@${OPENTOFU_VERSION} failed (Go and the Go module proxy are needed): ${error.message}`);
    });
    const { Dir: source } = JSON.parse(downloaded.stdout) as { Dir: string };
    mkdirSync(CACHE, { recursive: true });
    const partial = `${path}.partial`;
    // Niced: the build takes both cores for minutes while other test files run beside it.
    await run('nice', ['-n', '19', 'go', 'build', '-trimpath', '-ldflags', `-s -w -X ${OPENTOFU_MODULE}/version.dev=no`, '-o', partial, './cmd/tofu'], {
      cwd: source,
      env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=readonly' },
      maxBuffer: 1 << 24,
    });
    renameSync(partial, path);
    return { path, builtSeconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    release();
  }
}

/** The CLI the tests use: EARSHOT_TERRAFORM_CLI, or OpenTofu built from source. */
export async function terraformCli(): Promise<TerraformCli> {
  const chosen = process.env.EARSHOT_TERRAFORM_CLI;
  const { path, builtSeconds } = chosen ? { path: chosen, builtSeconds: 0 } : await openTofu();
  const emptyConfig = join(REPOSITORY, '.cache', 'opentofu', 'empty.tfrc');
  mkdirSync(resolve(emptyConfig, '..'), { recursive: true });
  writeFileSync(emptyConfig, '');
  const { stdout } = await run(path, ['version'], { env: { ...process.env, TF_CLI_CONFIG_FILE: emptyConfig } });
  const version = stdout.split('\n')[0]?.trim() ?? '';
  const registryHost = version.startsWith('OpenTofu') ? 'registry.opentofu.org' : 'registry.terraform.io';
  return { path, version, registryHost, emptyConfig, builtSeconds };
}
