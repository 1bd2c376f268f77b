import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pythonTools } from './python-tools';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const CACHE = join(ROOT, '.cache');

/** A command an npm devDependency installs (npm workspaces hoist them to the root). */
export const npmBin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

export const OPENAPI_GENERATOR_VERSION = '7.25.0';

/**
 * The tools users point at an API description, pinned: from PyPI into the
 * suite's own virtual environment, made on first use.
 */
export function contractTools(): string {
  return pythonTools('contract-tools', ['openapi-spec-validator==0.9.0', 'openapi-python-client==0.29.1', 'fastavro==1.13.1', 'gql[requests]==4.4.0']);
}

/** openapi-generator-cli's jar from Maven Central, fetched once into .cache/ by Maven. */
export function openapiGeneratorJar(): string {
  const dir = join(CACHE, 'openapi-generator');
  const jar = join(dir, `openapi-generator-cli-${OPENAPI_GENERATOR_VERSION}.jar`);
  if (existsSync(jar)) return jar;
  mkdirSync(dir, { recursive: true });
  const artifact = `org.openapitools:openapi-generator-cli:${OPENAPI_GENERATOR_VERSION}`;
  const mvn = spawnSync('mvn', ['-q', '-B', '-Dstyle.color=never', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${dir}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (mvn.status !== 0 || !existsSync(jar)) throw new Error(`mvn could not fetch ${artifact} (exit ${mvn.status}); are Maven and Maven Central reachable?`);
  return jar;
}

export interface ToolRun {
  code: number;
  output: string;
}

/** Runs a command to its end, stdout and stderr together. */
export function run(command: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<ToolRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

/** The live document, written to `dir` as a file, for tools that read files. */
export async function savedDescription(origin: string, dir: string): Promise<string> {
  const response = await fetch(`${origin}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  const file = join(dir, 'openapi.json');
  writeFileSync(file, await response.text());
  return file;
}
