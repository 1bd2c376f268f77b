import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

describe('GET/POST /deployments', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('deployments');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
  });
  afterAll(async () => query?.stop());

  it('records deployments through the log, lists them newest first by agent, only to their tenant, and audits them', async () => {
    const v41 = await query.post('/deployments', acme.apiKey, { agent: 'agent_support', version: 'v41', deployedAt: '2026-03-01T09:00:00Z' });
    const v42 = await query.post('/deployments', acme.apiKey, {
      agent: 'agent_support',
      version: 'v42',
      previousVersion: 'v41',
      deployedAt: '2026-03-02T09:00:00Z',
    });
    await query.post('/deployments', acme.apiKey, { agent: 'agent_sales', version: 'v7', deployedAt: '2026-03-03T09:00:00Z' });
    expect([v41.statusCode, v42.statusCode]).toEqual([201, 201]);
    let page;
    do page = (await query.get('/deployments?agent=agent_support', acme.apiKey)).json();
    while (page.items.length < 2);
    expect(page.items.map((d: { version: string }) => d.version)).toEqual(['v42', 'v41']);
    expect(page.items[0]).toMatchObject({ id: v42.json().id, previousVersion: 'v41', deployedAt: '2026-03-02T09:00:00.000Z', deployedBy: 'default' });
    const firstPage = (await query.get('/deployments?limit=1', acme.apiKey)).json();
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.nextCursor).not.toBeNull();
    expect((await query.get('/deployments', globex.apiKey)).json().items).toEqual([]);
    const audit = (await query.get('/audit?action=deployment.recorded', acme.apiKey)).json();
    expect(audit.items).toHaveLength(3);
  });

  it('reads one deployment by id, as its latest record left it, only to its tenant', async () => {
    const first = await query.post('/deployments', acme.apiKey, {
      id: 'support-v50',
      agent: 'agent_support',
      version: 'v50',
      deployedAt: '2026-03-05T09:00:00Z',
    });
    expect(first.statusCode).toBe(201);
    const one = await query.get('/deployments/support-v50', acme.apiKey);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({
      ok: true,
      deployment: {
        id: 'support-v50',
        agent: 'agent_support',
        version: 'v50',
        deployedAt: '2026-03-05T09:00:00.000Z',
        previousVersion: null,
        environment: null,
        description: null,
        deployedBy: 'default',
      },
    });
    // A later record of the same id replaces it: later by when it was written, so the test's clock moves on first.
    query.clock.advance(1_000);
    await query.post('/deployments', acme.apiKey, { id: 'support-v50', agent: 'agent_support', version: 'v50', description: 'corrected' });
    expect((await query.get('/deployments/support-v50', acme.apiKey)).json().deployment).toMatchObject({ description: 'corrected' });
    expect((await query.get('/deployments/support-v50', globex.apiKey)).json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect((await query.get('/deployments/none', acme.apiKey)).statusCode).toBe(404);
  });

  it('refuses a deployment without a version (400)', async () => {
    expect((await query.post('/deployments', acme.apiKey, { agent: 'a' })).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: [{ path: 'body.version' }],
    });
  });
});
