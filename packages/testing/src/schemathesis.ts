import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pythonTools } from './python-tools';

/**
 * Where schemathesis runs: hypothesis keeps its examples database (`.hypothesis/`) in the working directory, and in the
 * repository's root Prettier's check, running beside it, listed files the next example deleted and failed to read them.
 */
const WORKING_DIRECTORY = resolve(new URL('../../..', import.meta.url).pathname, '.cache', 'schemathesis');

/** schemathesis from PyPI, in the suite's own virtual environment (made on first use). */
export function schemathesisBinary(): string {
  return `${pythonTools('schemathesis', ['schemathesis'])}/schemathesis`;
}

export interface SchemathesisRun {
  code: number;
  output: string;
}

export function runSchemathesis(binary: string, args: readonly string[]): Promise<SchemathesisRun> {
  return new Promise((resolvePromise, reject) => {
    mkdirSync(WORKING_DIRECTORY, { recursive: true });
    const child = spawn(binary, args, { cwd: WORKING_DIRECTORY, env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}
