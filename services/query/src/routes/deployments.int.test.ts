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

  it('answers one deployment by id, only to its tenant', async () => {
    const created = (await query.post('/deployments', acme.apiKey, { agent: 'agent_billing', version: 'v3', deployedAt: '2026-03-04T09:00:00Z' })).json();
    const one = await query.get(`/deployments/${created.id}`, acme.apiKey);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({
      ok: true,
      deployment: { id: created.id, agent: 'agent_billing', version: 'v3', deployedAt: '2026-03-04T09:00:00.000Z' },
    });
    expect((await query.get(`/deployments/${created.id}`, globex.apiKey)).json()).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('refuses a deployment without a version (400)', async () => {
    expect((await query.post('/deployments', acme.apiKey, { agent: 'a' })).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: [{ path: 'body.version' }],
    });
  });
});
