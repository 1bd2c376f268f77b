import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;

/** A check's command, run from the repository root; its output is the failure message, so the rule's name shows. */
function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const bin = (name: string) => `${root}node_modules/.bin/${name}`;

/**
 * The rules the tools hold, inside the suite: a type error, a lint rule, a
 * file the formatter would change, a forbidden dependency between modules or
 * unused code fails `npm test` with the tool's own report.
 */
describe('static checks', () => {
  it.each([
    ['the type check of the services, packages and tests', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
    ['the type check of the console', bin('tsc'), ['--noEmit', '-p', 'console/tsconfig.json']],
    ['ESLint with typescript-eslint’s type-checked rules', bin('eslint'), ['.', '--max-warnings', '0']],
    ['Prettier’s formatting', bin('prettier'), ['--check', '.']],
    [
      'the dependency rules (dependency-cruiser)',
      bin('depcruise'),
      ['packages', 'services', 'console', 'test', 'bench', 'deploy', '--config', '.dependency-cruiser.cjs'],
    ],
    ['no unused files, exports or dependencies (knip)', bin('knip'), ['--no-progress']],
  ])(
    '%s',
    async (_name, command, args) => {
      const { code, output } = await run(command, args);
      expect(code, output).toBe(0);
    },
    600_000,
  );
});
