import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '@earshot/db';
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
      // Six calls of one day, on the partitions their keys hash to: the day's meters in a row per partition.
      ...['u3', 'u4', 'u5', 'u6', 'u7', 'u8'].flatMap((providerCallId, i) =>
        callScript({ tenant: acme.id, providerCallId, turns: 1, startMs: Date.parse('2026-02-03T10:00:00Z') + i * 60_000 }),
      ),
    ]);
  });
  afterAll(async () => query?.stop());

  it('lists the usage meters per day, newest first, paged, only the tenant’s', async () => {
    const page = (await query.get('/usage?limit=1', acme.apiKey)).json();
    expect(page.items).toEqual([
      { day: '2026-02-03', eventsIngested: expect.any(Number), calls: 6, callMinutes: expect.any(Number), apiRequests: 0, storedBytes: expect.any(Number) },
    ]);
    const [{ shards }] = await inTenant(query.db, acme.id, (tx) =>
      tx.query(query.sql`select count(*)::int as shards from usage_meters where day = '2026-02-03'`),
    );
    expect(shards).toBeGreaterThan(1);
    const second = (await query.get(`/usage?limit=1&cursor=${page.nextCursor}`, acme.apiKey)).json();
    expect(second.items).toEqual([
      { day: '2026-02-02', eventsIngested: expect.any(Number), calls: 1, callMinutes: expect.any(Number), apiRequests: 0, storedBytes: expect.any(Number) },
    ]);
    expect(page.period).toMatchObject({ planId: 'default', currency: 'USD', meters: expect.arrayContaining([expect.objectContaining({ meter: 'calls' })]) });
    const next = (await query.get(`/usage?limit=1&cursor=${second.nextCursor}`, acme.apiKey)).json();
    expect(next.items.map((d: { day: string }) => d.day)).toEqual(['2026-02-01']);
    expect(next.nextCursor).toBeNull();
    expect((await query.get('/usage?from=2026-02-02T00:00:00Z', acme.apiKey)).json().items).toHaveLength(2);
    expect((await query.get('/usage', globex.apiKey)).json().items).toEqual([]);
  });
});
