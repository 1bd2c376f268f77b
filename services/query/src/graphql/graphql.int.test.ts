import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callIdOf } from '@earshot/events';
import { callScript, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';
import { MAX_INTROSPECTION_DEPTH, MAX_QUERY_COST, MAX_QUERY_DEPTH } from './graphql-routes';

const BASE = Date.parse('2026-02-01T08:00:00.000Z');

let earshot: TestEarshot;
let acme: EarshotTenant;
let globex: EarshotTenant;

const calls = (tenant: string, count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) =>
    callScript({
      tenant,
      providerCallId: `${prefix}-${i}`,
      turns: 2,
      startMs: BASE + i * 60_000,
      agentId: i % 2 ? 'agent_sales' : 'agent_support',
      ending: i % 3 === 2 ? 'failed' : 'completed',
    }),
  ).flat();

beforeAll(async () => {
  earshot = await startEarshot('graphql');
  acme = await earshot.createTenant('Acme');
  globex = await earshot.createTenant('Globex');
  await earshot.project([...calls(acme.id, 6, 'acme'), ...calls(globex.id, 2, 'globex')]);
}, 120_000);
afterAll(async () => earshot?.stop());

interface CallPage {
  items: { id: string; status?: string; agentId?: string }[];
  nextCursor: string | null;
}
interface GraphqlAnswer {
  data?: { calls: CallPage; call: { id: string; turns: unknown[]; transcript: unknown[]; traces: unknown[] } | null; realtime?: unknown };
  errors?: { message: string; extensions?: { code: string } }[];
  code?: string;
  ok?: boolean;
}

async function graphql(apiKey: string | undefined, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${earshot.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as GraphqlAnswer };
}

interface CallDetailAnswer {
  call: { turns: unknown[]; transcript: { speaker: string; text: string }[]; traces: { kind: string; name: string }[] };
}
const rest = async <T>(path: string, apiKey: string): Promise<T> =>
  (await (await fetch(`${earshot.origin}/api/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as T;

describe('/graphql', () => {
  it('answers calls with filters and cursor pagination exactly as GET /calls does', async () => {
    const first = await graphql(acme.apiKey, '{ calls(limit: 4) { items { id agentId status startedAt latency { totalMs } } nextCursor } }');
    expect(first.status).toBe(200);
    const page = first.body.data?.calls as CallPage;
    expect(page.items).toHaveLength(4);
    const restPage = await rest<CallPage>('/calls?limit=4', acme.apiKey);
    expect(page.items.map((c) => c.id)).toEqual(restPage.items.map((c) => c.id));
    expect(page.nextCursor).toBe(restPage.nextCursor);

    const second = await graphql(acme.apiKey, 'query($cursor: String) { calls(limit: 4, cursor: $cursor) { items { id } nextCursor } }', {
      cursor: page.nextCursor,
    });
    expect(second.body.data?.calls.items).toHaveLength(2);
    expect(second.body.data?.calls.nextCursor).toBeNull();

    const failed = await graphql(acme.apiKey, '{ calls(status: "failed", agentId: "agent_support") { items { status agentId } } }');
    expect(failed.body.data?.calls.items).toEqual([{ status: 'failed', agentId: 'agent_support' }]);
  });

  it('answers one call with its turns, transcript and trace, as GET /calls/{id} does', async () => {
    const id = callIdOf(acme.id, 'vapi', 'acme-0');
    const answer = await graphql(
      acme.apiKey,
      `{ call(id: "${id}") { id turnCount turns { turnId latency { totalMs } } transcript { speaker text } traces { kind name } } }`,
    );
    const detail = (await rest<CallDetailAnswer>(`/calls/${id}`, acme.apiKey)).call;
    expect(answer.body.data?.call?.id).toBe(id);
    expect(answer.body.data?.call?.turns).toHaveLength(detail.turns.length);
    expect(answer.body.data?.call?.transcript).toEqual(detail.transcript.map((s) => ({ speaker: s.speaker, text: s.text })));
    expect(answer.body.data?.call?.traces).toEqual(detail.traces.map((t) => ({ kind: t.kind, name: t.name })));
  });

  it('answers outcomes, metrics, realtime, incidents and alerts', async () => {
    const answer = await graphql(
      acme.apiKey,
      `
        {
          outcomes {
            items {
              id
            }
            source
          }
          metrics(name: "calls.total", from: "2026-02-01T08:00:00Z", to: "2026-02-01T09:00:00Z", interval: "1h") {
            name
            points {
              t
              value
            }
          }
          realtime {
            concurrentCalls
            successRate
            p95LatencyMs
          }
          incidents {
            items {
              id
            }
          }
          alerts {
            items {
              id
            }
          }
        }
      `,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toMatchObject({
      outcomes: { items: [], source: 'postgres:outcomes' },
      metrics: { name: 'calls.total', points: [{ t: '2026-02-01T08:00:00.000Z', value: 6 }] },
      realtime: { concurrentCalls: 0 },
      incidents: { items: [] },
      alerts: { items: [] },
    });
  });

  it('keeps tenants apart: another tenant’s call is absent and its calls are not listed', async () => {
    const theirs = callIdOf(globex.id, 'vapi', 'globex-0');
    const answer = await graphql(acme.apiKey, `{ call(id: "${theirs}") { id } calls(limit: 200) { items { id } } }`);
    expect(answer.body.data?.call).toBeNull();
    const ids = answer.body.data?.calls.items.map((c) => c.id);
    expect(ids).toHaveLength(6);
    expect(ids).not.toContain(theirs);
    const own = await graphql(globex.apiKey, '{ calls { items { id } } }');
    expect(own.body.data?.calls.items.map((c) => c.id).sort()).toEqual([theirs, callIdOf(globex.id, 'vapi', 'globex-1')].sort());
  });

  it('needs a key (401) holding the field’s scope (403 on the route, FORBIDDEN on the field)', async () => {
    const anonymous = await graphql(undefined, '{ realtime { concurrentCalls } }');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    const usageOnly = await earshot.createKey(acme.id, ['usage:read']);
    expect((await graphql(usageOnly, '{ realtime { concurrentCalls } }')).status).toBe(403);
    const metricsOnly = await earshot.createKey(acme.id, ['metrics:read']);
    const partial = await graphql(metricsOnly, '{ realtime { concurrentCalls } calls { items { id } } }');
    expect(partial.status).toBe(200);
    expect(partial.body.data?.realtime).toEqual({ concurrentCalls: 0 });
    expect(partial.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses bad arguments, too deep and too costly queries with the Error shape or a coded error, before reading', async () => {
    const invalid = await graphql(acme.apiKey, '{ calls(limit: 500) { items { id } } }');
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_ERROR');
    const unknownField = await graphql(acme.apiKey, '{ calls { secrets } }');
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(JSON.stringify(unknownField.body)).toContain('secrets');
    const deep = `{ call(id: "x") { ${'turns { latency { totalMs } }'} } ${'calls { items { latency { totalMs } } }'} }`;
    expect((await graphql(acme.apiKey, deep)).status).toBe(200);
    const fragments = Array.from(
      { length: MAX_QUERY_DEPTH },
      (_, i) => `f${i}: calls(limit: 200) { items { id agentId status startedAt endedAt durationMs qualityScore provider providerCallId summary } }`,
    ).join(' ');
    const costly = await graphql(acme.apiKey, `{ ${fragments} }`);
    expect(costly.status).toBe(400);
    expect(costly.body).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(JSON.stringify(costly.body)).toContain(`${MAX_QUERY_COST}`);
    const nested = (levels: number) => `${'fields { type { '.repeat(levels)}name${' } }'.repeat(levels)}`;
    const tooDeep = await graphql(acme.apiKey, `{ calls { items { id } } __schema { types { ${nested(MAX_INTROSPECTION_DEPTH)} } } }`);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    expect(JSON.stringify(tooDeep.body)).toMatch(/depth/i);
  });
});
