import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const VENV = resolve('.cache/schemathesis-venv');
const BINARY = `${VENV}/bin/schemathesis`;

/**
 * schemathesis from PyPI in a git-ignored virtual environment, installed on
 * first use. Answers undefined where Python is missing and CI is not set (the
 * caller says plainly that it did not run); where CI is set, a missing Python
 * is an error.
 */
export function schemathesisBinary(): string | undefined {
  if (existsSync(BINARY)) return BINARY;
  const python = ['python3', 'python'].find((name) => {
    try {
      execFileSync(name, ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!python) {
    if (process.env.CI) throw new Error('Python 3 is required to run schemathesis where CI is set');
    return undefined;
  }
  execFileSync(python, ['-m', 'venv', VENV], { stdio: 'inherit' });
  execFileSync(`${VENV}/bin/pip`, ['install', '--quiet', 'schemathesis'], { stdio: 'inherit' });
  return BINARY;
}

export interface SchemathesisRun {
  code: number;
  output: string;
}

export function runSchemathesis(binary: string, args: readonly string[]): Promise<SchemathesisRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(binary, args, { env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}
