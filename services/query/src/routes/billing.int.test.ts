import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuery, type QueryTenant, type TestQuery } from '../../../../test/support/query';

describe('GET /billing/invoices', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('billing');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    // Invoices are made by billing (issue 9); here they are written as it will write them.
    for (const [month, amount] of [['01', 120.5], ['02', 98]] as const) {
      await query.db.query(query.sql`
        insert into invoices (tenant_id, id, period_start, period_end, amount_due, status, issued_at, lines)
        values (${acme.id}, ${`inv_2026_${month}`}, ${`2026-${month}-01`}, ${`2026-${month}-28`}, ${amount}, 'paid', ${`2026-${month}-28T12:00:00Z`},
                ${JSON.stringify([{ description: 'calls', quantity: 100, unitPrice: amount / 100, amount }])}::jsonb)`);
    }
  });
  afterAll(async () => query?.stop());

  it('lists the invoice history newest first, only the tenant’s', async () => {
    const page = (await query.get('/billing/invoices', acme.apiKey)).json();
    expect(page.items.map((i: { id: string }) => i.id)).toEqual(['inv_2026_02', 'inv_2026_01']);
    expect(page.items[1]).toMatchObject({ periodStart: '2026-01-01', periodEnd: '2026-01-28', currency: 'USD', amountDue: 120.5, status: 'paid', lines: [{ amount: 120.5 }] });
    expect((await query.get('/billing/invoices', globex.apiKey)).json()).toEqual({ ok: true, items: [], nextCursor: null });
  });
});
