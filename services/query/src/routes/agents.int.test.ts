import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AgentListSchema } from '@earshot/contracts';
import { callScript, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

const DAY = Date.parse('2026-02-01T00:00:00Z');

type AgentPage = z.infer<typeof AgentListSchema>;

describe('GET /agents', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('agents');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    await query.project([
      ...callScript({ tenant: acme.id, providerCallId: 'a1', turns: 1, startMs: DAY }),
      ...callScript({ tenant: acme.id, providerCallId: 'a2', turns: 1, startMs: DAY + 3_600_000 }),
      ...callScript({ tenant: acme.id, providerCallId: 'a3', turns: 1, startMs: DAY + 60_000, agentId: 'agent_sales' }),
      ...callScript({ tenant: globex.id, providerCallId: 'g1', turns: 1, startMs: DAY, agentId: 'agent_globex' }),
    ]);
    await query.post('/deployments', acme.apiKey, { agent: 'agent_support', version: 'v1', deployedAt: '2026-01-01T00:00:00Z' });
    await query.post('/deployments', acme.apiKey, { agent: 'agent_support', version: 'v2', deployedAt: '2026-01-15T00:00:00Z' });
    await query.post('/deployments', acme.apiKey, { agent: 'agent_billing', version: 'v9', deployedAt: '2026-01-10T00:00:00Z' });
  });
  afterAll(async () => query?.stop());

  it('names every agent of the tenant’s calls and deployments, by id, with calls, last call and latest version', async () => {
    const page = (await query.get('/agents', acme.apiKey)).json<AgentPage>();
    const lastCall = async (agentId: string) =>
      (await query.get(`/calls?agentId=${agentId}&sort=-startedAt&limit=1`, acme.apiKey)).json<{ items: { startedAt: string }[] }>().items[0]?.startedAt;
    expect(page).toEqual({
      ok: true,
      nextCursor: null,
      items: [
        { id: 'agent_billing', calls: 0, lastCallAt: null, version: 'v9', deployedAt: '2026-01-10T00:00:00.000Z' },
        { id: 'agent_sales', calls: 1, lastCallAt: await lastCall('agent_sales'), version: null, deployedAt: null },
        { id: 'agent_support', calls: 2, lastCallAt: await lastCall('agent_support'), version: 'v2', deployedAt: '2026-01-15T00:00:00.000Z' },
      ],
    });
    expect((await query.get('/agents', globex.apiKey)).json<AgentPage>().items.map((a) => a.id)).toEqual(['agent_globex']);
  });

  it('pages by id with the cursor it gives', async () => {
    const first = (await query.get('/agents?limit=2', acme.apiKey)).json<AgentPage>();
    expect(first.items.map((a) => a.id)).toEqual(['agent_billing', 'agent_sales']);
    const second = (await query.get(`/agents?limit=2&cursor=${first.nextCursor ?? ''}`, acme.apiKey)).json<AgentPage>();
    expect(second).toMatchObject({ items: [{ id: 'agent_support' }], nextCursor: null });
  });
});
