import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callScript, contractTools, type EarshotTenant, run, startEarshot, type TestEarshot } from '@earshot/testing';
import { SDL_PATH } from './graphql-routes';

let earshot: TestEarshot;
let tenant: EarshotTenant;
let python: string;
let dir: string;

beforeAll(async () => {
  python = contractTools();
  earshot = await startEarshot('graphql-tools');
  tenant = await earshot.createTenant();
  const start = Date.parse('2026-02-01T08:00:00.000Z');
  await earshot.project(
    Array.from({ length: 3 }, (_, i) => callScript({ tenant: tenant.id, providerCallId: `gql-${i}`, turns: 2, startMs: start + i * 60_000 })).flat(),
  );
  dir = mkdtempSync(join(tmpdir(), 'earshot-gql-'));
}, 600_000);
afterAll(async () => {
  await earshot?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const introspect = (apiKey?: string) =>
  fetch(`${earshot.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });

/** A gql (PyPI) client: fetches the schema by introspection, validates a typed query against it locally, then runs it. */
const GQL_SCRIPT = `
import json, sys
from gql import Client, gql
from gql.transport.requests import RequestsHTTPTransport

url, key = sys.argv[1], sys.argv[2]
transport = RequestsHTTPTransport(url=url, headers={"Authorization": f"Bearer {key}"})
with Client(transport=transport, fetch_schema_from_transport=True) as session:
    query = gql("query Calls($limit: Int) { calls(limit: $limit) { items { id status agentId latency { totalMs } } nextCursor } }")
    result = session.execute(query, variable_values={"limit": 2})
    try:
        session.execute(gql("{ calls { items { noSuchField } } }"))
        refused = False
    except Exception as error:
        refused = "noSuchField" in str(error)
    print(json.dumps({"types": sorted(session.client.schema.type_map.keys()), "calls": result["calls"], "refusedLocally": refused}))
`;

describe('GraphQL as tools read it', () => {
  it('answers the standard introspection query, whose client schema prints as GET /graphql/schema.graphql serves it', async () => {
    const response = await introspect(tenant.apiKey);
    expect(response.status).toBe(200);
    const { data, errors } = (await response.json()) as { data: IntrospectionQuery; errors?: unknown };
    expect(errors).toBeUndefined();
    const sdl = await fetch(`${earshot.origin}${SDL_PATH}`);
    expect(sdl.status).toBe(200);
    expect(sdl.headers.get('content-type')).toMatch(/^application\/graphql/);
    const served = await sdl.text();
    expect(printSchema(buildClientSchema(data))).toBe(served);
    expect(served).toContain('type Query');
    expect(served).toContain('calls(');
  });

  it('keeps introspection behind a key', async () => {
    const anonymous = await introspect();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
  });

  it('lets gql (PyPI) fetch the schema and run a typed query', async () => {
    const script = join(dir, 'calls.py');
    writeFileSync(script, GQL_SCRIPT);
    const result = await run(`${python}/python`, [script, `${earshot.origin}/graphql`, tenant.apiKey]);
    expect(result.code, result.output).toBe(0);
    const answer = JSON.parse(result.output.trim().split('\n').at(-1) ?? '{}') as {
      types: string[];
      calls: { items: { id: string }[]; nextCursor: string | null };
      refusedLocally: boolean;
    };
    expect(answer.types).toEqual(expect.arrayContaining(['Query', 'CallPage', 'Call', 'Latency']));
    const rest = (await (await fetch(`${earshot.origin}/api/v1/calls?limit=2`, { headers: { authorization: `Bearer ${tenant.apiKey}` } })).json()) as {
      items: { id: string }[];
      nextCursor: string | null;
    };
    expect(answer.calls.items.map((c) => c.id)).toEqual(rest.items.map((c) => c.id));
    expect(answer.calls.items).toHaveLength(2);
    expect(answer.calls.nextCursor).toBe(rest.nextCursor);
    expect(answer.refusedLocally).toBe(true);
  }, 120_000);
});
