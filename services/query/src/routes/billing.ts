import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linesOfEvent } from '@earshot/billing-rules';
import { InvoiceListQuerySchema, InvoiceListSchema, type BillingInvoiceSchema, type CursorKinds } from '@earshot/contracts';
import { sql, type SQLQuery, type TenantReads } from '@earshot/db';
import { newestFirst, pageOf, pagingOf, type Paging, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

type Invoice = z.infer<typeof BillingInvoiceSchema>;

interface InvoiceRow {
  id: string;
  number: number;
  period_start: Date;
  period_end: Date;
  status: Invoice['status'];
  plan_id: string;
  currency: string;
  lines: unknown;
  subtotal_cents: number;
  base_fee_cents: number;
  total_cents: number;
  issued_at: Date;
}

function invoicePageStatement(paging: Paging): SQLQuery {
  const keyset = newestFirst('issued_at', 'id', paging);
  return sql`
    select id, number, period_start, period_end, status, plan_id, currency, lines, subtotal_cents, base_fee_cents, total_cents, issued_at
      from billing_invoices where ${keyset.where} ${keyset.order} ${keyset.window}`;
}

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
      const rows = await readAs(reads, request, (tx) => tx.query(invoicePageStatement(paging)) as Promise<InvoiceRow[]>);
      return pageOf(rows, paging, (r) => ({ v: r.issued_at.toISOString(), id: r.id }), invoiceOf);
    },
  );
}
