import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

describe('GET/POST /incidents', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('incidents');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
  });
  afterAll(async () => query?.stop());

  it('creates incidents through the log, lists them newest first with a status filter, only to their tenant', async () => {
    const first = await query.post('/incidents', acme.apiKey, { title: 'Slow replies', severity: 'high', startedAt: '2026-03-01T10:00:00Z' }, 'inc-1');
    expect(first.statusCode).toBe(201);
    await query.post('/incidents', acme.apiKey, { title: 'Tool down', severity: 'critical', status: 'investigating', startedAt: '2026-03-02T10:00:00Z' });
    expect(
      (await query.post('/incidents', acme.apiKey, { title: 'Slow replies', severity: 'high', startedAt: '2026-03-01T10:00:00Z' }, 'inc-1')).json(),
    ).toEqual(first.json());
    // Read your writes: a write is answered once the projector has applied it (schemathesis once found a rule 404 right after its 201).
    const page = (await query.get('/incidents', acme.apiKey)).json();
    expect(page.items.map((i: { title: string }) => i.title)).toEqual(['Tool down', 'Slow replies']);
    expect(page.items[1]).toMatchObject({ id: first.json().id, severity: 'high', status: 'open', openedBy: 'default' });
    expect((await query.get('/incidents?status=investigating', acme.apiKey)).json().items).toHaveLength(1);
    expect((await query.get('/incidents', globex.apiKey)).json().items).toEqual([]);
  });

  it('refuses an unknown severity (400) and a key without incidents:write (403)', async () => {
    expect((await query.post('/incidents', acme.apiKey, { title: 'x', severity: 'apocalyptic' })).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: [{ path: 'body.severity' }],
    });
    const reader = await query.createKey(acme.id, { scopes: ['incidents:read'] });
    expect((await query.post('/incidents', reader, { title: 'x', severity: 'low' })).statusCode).toBe(403);
  });
});
