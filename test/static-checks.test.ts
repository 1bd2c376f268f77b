import { spawn } from 'node:child_process';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

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

/** The TypeScript projects, by what they hold. */
const PROJECTS: [string, string][] = [
  ['the services, packages and tests', 'tsconfig.json'],
  ['the console', 'console/tsconfig.json'],
  ['the TypeScript SDK', 'sdk/typescript/tsconfig.json'],
];

/**
 * Each project's program, built once for the type check and ESLint's typed
 * rules both: with `tsc` and `eslint` each building their own, these checks
 * took 45% more CPU (274 s against 189 on the two-core machine).
 */
const programs = new Map<string, ts.Program>();
function programOf(project: string): ts.Program {
  const built = programs.get(project);
  if (built) return built;
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(`${root}${project}`, {}, host);
  if (!parsed) throw new Error(`${project} could not be read`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences ?? [],
    configFileParsingDiagnostics: parsed.errors,
  });
  programs.set(project, program);
  return program;
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};

/**
 * The rules the tools hold, inside the suite: a type error, a lint rule, a
 * file the formatter would change, a forbidden dependency between modules or
 * unused code fails `npm test` with the tool's own report.
 */
describe('static checks', () => {
  afterAll(() => programs.clear());

  it.each(PROJECTS)(
    'the type check of %s',
    (_name, project) => {
      const diagnostics = ts.getPreEmitDiagnostics(programOf(project));
      expect(diagnostics.length, ts.formatDiagnostics(diagnostics, formatHost)).toBe(0);
    },
    600_000,
  );

  it('ESLint with typescript-eslint’s type-checked rules', async () => {
    const eslint = new ESLint({
      cwd: root,
      overrideConfig: [
        {
          files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
          languageOptions: { parserOptions: { programs: PROJECTS.map(([, project]) => programOf(project)) } },
        },
      ],
    });
    const results = await eslint.lintFiles(['.']);
    const problems = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
    const report = await (await eslint.loadFormatter('stylish')).format(results);
    expect(problems, report).toBe(0);
  }, 600_000);

  it.each([
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
