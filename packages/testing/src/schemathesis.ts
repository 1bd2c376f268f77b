import { spawn } from 'node:child_process';
import { pythonTools } from './python-tools';

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
    const child = spawn(binary, args, { env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}
