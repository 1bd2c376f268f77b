import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '@earshot/events/samples';
import { startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

describe('GET /alerts', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('alerts');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    await query.project([
      sampleEvent('alert.fired', { tenant: acme.id, idempotency_key: 'a1', data: { alert_id: 'alr_1' } }),
      sampleEvent('alert.fired', { tenant: acme.id, idempotency_key: 'a2', occurred_at: '2026-01-09T10:00:00.000Z', data: { alert_id: 'alr_2' } }),
      sampleEvent('alert.resolved', { tenant: acme.id, idempotency_key: 'a3', data: { alert_id: 'alr_1' } }),
      sampleEvent('alert.fired', { tenant: globex.id, idempotency_key: 'g1', data: { alert_id: 'alr_g' } }),
    ]);
  });
  afterAll(async () => query?.stop());

  it('lists the tenant’s alerts newest first, filtered by status, never another tenant’s', async () => {
    const page = (await query.get('/alerts', acme.apiKey)).json();
    expect(page.items.map((a: { id: string }) => a.id)).toEqual(['alr_2', 'alr_1']);
    expect(page.items[1]).toMatchObject({ status: 'resolved', metric: 'latency.total_ms.p95', comparison: 'gt', threshold: 1200 });
    expect((await query.get('/alerts?status=firing', acme.apiKey)).json().items.map((a: { id: string }) => a.id)).toEqual(['alr_2']);
    expect((await query.get('/alerts', globex.apiKey)).json().items.map((a: { id: string }) => a.id)).toEqual(['alr_g']);
    expect((await query.get('/alerts?status=snoozed', acme.apiKey)).statusCode).toBe(400);
  });
});
