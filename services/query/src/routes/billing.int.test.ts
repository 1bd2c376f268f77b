import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '@earshot/events/samples';
import { startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

describe('GET /billing/invoices', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('billing');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    // The period closer (@earshot/billing) issues invoices to the log; here two are appended as it appends them.
    await query.project(
      (['01', '02'] as const).map((month, i) =>
        sampleEvent('invoice.issued', {
          tenant: acme.id,
          idempotency_key: `invoice:${acme.id}:2026-${month}`,
          occurred_at: `2026-${month}-28T12:00:00Z`,
          data: {
            invoice_id: `inv-2026-${month}`,
            number: i + 1,
            period_start: `2026-${month}-01T00:00:00Z`,
            period_end: `2026-0${i + 2}-01T00:00:00Z`,
            total_cents: 500 + i,
          },
        }),
      ),
    );
  });
  afterAll(async () => query?.stop());

  it('lists the issued invoices newest first, with their lines in the API’s shape, only the tenant’s', async () => {
    const page = (await query.get('/billing/invoices', acme.apiKey)).json();
    expect(page.items.map((i: { id: string; number: number }) => [i.id, i.number])).toEqual([
      ['inv-2026-02', 2],
      ['inv-2026-01', 1],
    ]);
    expect(page.items[1]).toMatchObject({
      periodStart: '2026-01-01T00:00:00.000Z',
      periodEnd: '2026-02-01T00:00:00.000Z',
      status: 'issued',
      planId: 'starter',
      currency: 'USD',
      totalCents: 500,
      lines: [{ meter: 'call_minutes', quantity: 1_250, included: 1_000, billable: 250, unitSize: 1, unitPriceCents: 2, amountCents: 500 }],
    });
    expect((await query.get('/billing/invoices?limit=1', acme.apiKey)).json().nextCursor).toEqual(expect.any(String));
    expect((await query.get('/billing/invoices', globex.apiKey)).json()).toEqual({ ok: true, items: [], nextCursor: null });
  });
});
