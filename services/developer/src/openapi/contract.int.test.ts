import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '@earshot/auth';
import { runSchemathesis, schemathesisBinary, startEarshot, type EarshotTenant, type TestEarshot, ADMIN_TOKEN } from '@earshot/testing';

let earshot: TestEarshot;
let apiKey: string;
let binary: string;

beforeAll(async () => {
  binary = schemathesisBinary();
  earshot = await startEarshot('schemathesis');
  const tenant: EarshotTenant = await earshot.createTenant();
  // Every scope but keys:write: a fuzzer allowed to rotate or revoke the key it runs with would lock itself out.
  apiKey = await earshot.createKey(
    tenant.id,
    SCOPES.filter((scope) => scope !== 'keys:write'),
  );
  // The first request builds the document (cached after it); on a busy machine that outlasted schemathesis's 10 s load.
  const document = await fetch(`${earshot.origin}/openapi.json`);
  expect(document.status).toBe(200);
  // Read to its end: a body left unread holds its socket open, past the server's close, until a GC collects it.
  await document.arrayBuffer();
}, 300_000);
afterAll(async () => earshot?.stop());

/** The live document fuzzed with `token`, over the paths `paths` selects; the run's exit code and output. */
async function fuzz(token: string, paths: string[]) {
  return runSchemathesis(binary, [
    'run',
    `${earshot.origin}/openapi.json`,
    '--header',
    `Authorization: Bearer ${token}`,
    // Bounded to about a minute inside npm test: the coverage phase (every operation's boundary values) runs whole,
    // the random phase 5 examples an operation. One worker: hypothesis under threads trips a CPython 3.11 AST bug.
    '--max-examples',
    '5',
    '--seed',
    '7',
    '--workers',
    '1',
    '--request-timeout',
    '10',
    ...paths,
  ]);
}

describe('the live /openapi.json under schemathesis', () => {
  it('finds nothing: no 5xx, every answer as documented, invalid input refused', async () => {
    // Signed ingest needs an HMAC of each body (the gateway's own suite covers it); the operator routes take another token (below).
    const run = await fuzz(apiKey, ['--exclude-path-regex', '^/api/v1/(webhooks|admin)/']);
    expect(run.code, run.output.slice(-20_000)).toBe(0);
  }, 300_000);

  it('finds nothing on the operator routes either, with the operator token', async () => {
    const run = await fuzz(ADMIN_TOKEN, ['--include-path-regex', '^/api/v1/admin/']);
    expect(run.code, run.output.slice(-20_000)).toBe(0);
  }, 300_000);
});
