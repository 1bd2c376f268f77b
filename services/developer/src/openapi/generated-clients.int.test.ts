import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callScript, contractTools, type EarshotTenant, openapiGeneratorJar, run, savedDescription, startEarshot, type TestEarshot } from '@earshot/testing';

let earshot: TestEarshot;
let tenant: EarshotTenant;
let dir: string;
let file: string;
let python: string;
let jar: string;

beforeAll(async () => {
  python = contractTools();
  jar = openapiGeneratorJar();
  earshot = await startEarshot('generated-clients');
  tenant = await earshot.createTenant();
  const start = Date.parse('2026-02-01T08:00:00.000Z');
  await earshot.project(
    Array.from({ length: 3 }, (_, i) => callScript({ tenant: tenant.id, providerCallId: `client-${i}`, turns: 2, startMs: start + i * 60_000 })).flat(),
  );
  dir = mkdtempSync(join(tmpdir(), 'earshot-clients-'));
  file = await savedDescription(earshot.origin, dir);
}, 600_000);
afterAll(async () => {
  await earshot?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * What openapi-generator 7.25 says of every document, so not of ours: it
 * prints both for an empty one too, and the keyword notice is the spec's
 * `from` query parameter, a Python keyword, which it maps to `var_from`.
 */
const GENERATOR_NOTICES = [
  /OpenAPI 3\.1 support is still in beta/,
  /Failed to get the schema name: null/,
  /From \(reserved word\) cannot be used as model name/,
];
// The Java generator never renders an object example into its docs, and says so once per document that has one.
const JAVA_NOTICES = [/Ignoring complex example on request body/];

const warningsOf = (output: string, allowed: readonly RegExp[]) =>
  output.split('\n').filter((line) => /\bWARN\b/.test(line) && !allowed.some((notice) => notice.test(line)));

/** A short program over the client openapi-python-client generated: list calls, get the first. */
const PYTHON_SCRIPT = `
import json, sys
from earshot_api_client import AuthenticatedClient
from earshot_api_client.api.calls import list_calls, get_call

client = AuthenticatedClient(base_url=sys.argv[1], token=sys.argv[2])
page = list_calls.sync(client=client, limit=2)
call = get_call.sync(client=client, id=page.items[0].id)
print(json.dumps({"listed": [str(c.id) for c in page.items], "got": str(call.call.id)}))
`;

describe('clients generated from the live /openapi.json', () => {
  it('openapi-python-client (PyPI) generates with no warning, and its client lists calls and gets one', async () => {
    const config = join(dir, 'openapi-python-client.yaml');
    writeFileSync(config, 'post_hooks: []\n');
    const generated = await run(`${python}/openapi-python-client`, [
      'generate',
      '--path',
      file,
      '--output-path',
      join(dir, 'python-client'),
      '--config',
      config,
    ]);
    expect(generated.code, generated.output).toBe(0);
    expect(generated.output, generated.output).not.toMatch(/warning|unable|error/i);

    const script = join(dir, 'list_calls.py');
    writeFileSync(script, PYTHON_SCRIPT);
    const used = await run(`${python}/python`, [script, earshot.origin, tenant.apiKey], { env: { PYTHONPATH: join(dir, 'python-client') } });
    expect(used.code, used.output).toBe(0);
    const answer = JSON.parse(used.output.trim().split('\n').at(-1) ?? '{}') as { listed: string[]; got: string };
    expect(answer.listed).toHaveLength(2);
    expect(answer.got).toBe(answer.listed[0]);
  }, 300_000);

  for (const generator of ['python', 'typescript-fetch', 'go', 'java'])
    it(`openapi-generator-cli (Maven Central) generates ${generator} with no warning about the document`, async () => {
      // A run of seconds: without C2's compiler threads and G1's, it takes 28% less CPU.
      const generated = await run('java', [
        '-XX:TieredStopAtLevel=1',
        '-XX:+UseSerialGC',
        '-jar',
        jar,
        'generate',
        '-i',
        file,
        '-g',
        generator,
        '-o',
        join(dir, `generated-${generator}`),
      ]);
      expect(generated.code, generated.output.slice(-5_000)).toBe(0);
      expect(warningsOf(generated.output, generator === 'java' ? [...GENERATOR_NOTICES, ...JAVA_NOTICES] : GENERATOR_NOTICES)).toEqual([]);
      expect(generated.output).toMatch(/CallsApi|calls_api|api_calls/i);
    }, 300_000);
});
