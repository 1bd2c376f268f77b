import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractTools, npmBin, openapiGeneratorJar, run, savedDescription, startEarshot, type TestEarshot } from '@earshot/testing';

const REDOCLY_CONFIG = new URL('./redocly.yaml', import.meta.url).pathname;

let earshot: TestEarshot;
let dir: string;
let file: string;
let python: string;
let jar: string;

beforeAll(async () => {
  python = contractTools();
  jar = openapiGeneratorJar();
  earshot = await startEarshot('validators');
  dir = mkdtempSync(join(tmpdir(), 'earshot-openapi-'));
  file = await savedDescription(earshot.origin, dir);
}, 600_000);
afterAll(async () => {
  await earshot?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the live /openapi.json under the validators users run', () => {
  it('openapi-spec-validator (PyPI) finds no error', async () => {
    const result = await run(`${python}/openapi-spec-validator`, ['--validation-errors', 'all', '--schema', '3.1', file]);
    expect(result.output.trim(), result.output).toBe(`${file}: OK`);
    expect(result.code).toBe(0);
  });

  it('openapi-generator-cli validate (Maven Central) finds no error and recommends nothing', async () => {
    const result = await run('java', ['-jar', jar, 'validate', '--recommend', '-i', file]);
    expect(result.output, result.output).toContain('No validation issues detected.');
    expect(result.code).toBe(0);
  });

  it('Redocly’s recommended ruleset reports no error and no warning', async () => {
    const result = await run(npmBin('redocly'), ['lint', '--config', REDOCLY_CONFIG, '--format', 'stylish', file]);
    expect(result.output, result.output).toMatch(/Woohoo! Your API description is valid/);
    expect(result.output, result.output).not.toMatch(/You have \d+ warnings?/);
    expect(result.code).toBe(0);
  });
});
