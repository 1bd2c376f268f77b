import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callScript, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

describe('GET /usage', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('usage');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    await query.project([
      ...callScript({ tenant: acme.id, providerCallId: 'u1', turns: 1, startMs: Date.parse('2026-02-01T10:00:00Z') }),
      ...callScript({ tenant: acme.id, providerCallId: 'u2', turns: 1, startMs: Date.parse('2026-02-02T10:00:00Z') }),
    ]);
  });
  afterAll(async () => query?.stop());

  it('lists the usage meters per day, newest first, paged, only the tenant’s', async () => {
    const page = (await query.get('/usage?limit=1', acme.apiKey)).json();
    expect(page.items).toEqual([
      { day: '2026-02-02', eventsIngested: expect.any(Number), calls: 1, callMinutes: expect.any(Number), apiRequests: 0, storedBytes: expect.any(Number) },
    ]);
    expect(page.period).toMatchObject({ planId: 'default', currency: 'USD', meters: expect.arrayContaining([expect.objectContaining({ meter: 'calls' })]) });
    const next = (await query.get(`/usage?limit=1&cursor=${page.nextCursor}`, acme.apiKey)).json();
    expect(next.items.map((d: { day: string }) => d.day)).toEqual(['2026-02-01']);
    expect(next.nextCursor).toBeNull();
    expect((await query.get('/usage?from=2026-02-02T00:00:00Z', acme.apiKey)).json().items).toHaveLength(1);
    expect((await query.get('/usage', globex.apiKey)).json().items).toEqual([]);
  });
});
