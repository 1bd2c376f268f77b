import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linesOfEvent } from '@earshot/billing-rules';
import { InvoiceListQuerySchema, InvoiceListSchema, type BillingInvoiceSchema, type CursorKinds } from '@earshot/contracts';
import type { TenantReads } from '@earshot/db';
import { invoiceRows, type InvoiceRow } from '@earshot/read-models';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

type Invoice = z.infer<typeof BillingInvoiceSchema>;

function invoiceOf(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: Number(row.number),
    periodStart: row.period_start.toISOString(),
    periodEnd: row.period_end.toISOString(),
    status: row.status,
    planId: row.plan_id,
    currency: row.currency,
    lines: linesOfEvent(row.lines),
    subtotalCents: Number(row.subtotal_cents),
    baseFeeCents: Number(row.base_fee_cents),
    totalCents: Number(row.total_cents),
    issuedAt: row.issued_at.toISOString(),
  };
}

/** GET /billing/invoices: the invoices the period closer issued (billing_invoices), newest first. */
export function registerBillingRoutes(app: FastifyInstance, reads: TenantReads): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/billing/invoices',
    {
      schema: { querystring: InvoiceListQuerySchema, response: { 200: InvoiceListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /billing/invoices') },
    },
    async (request) => {
      const paging = pagingOf(request.query, CURSOR);
      const rows = await readAs(reads, request, (tx) => invoiceRows(tx, paging));
      return pageOf(rows, paging, (r) => ({ v: r.issued_at.toISOString(), id: r.id }), invoiceOf);
    },
  );
}
