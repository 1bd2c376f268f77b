import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { InvoiceListQuerySchema, InvoiceListSchema, type InvoiceSchema } from '@earshot/contracts';
import { sql, type ConnectionPool, type SQLQuery } from '@earshot/db';
import { newestFirst } from '../keyset';
import { pageOf, pagingOf, type Paging } from '../paging';
import { COMMON_ERRORS } from '../route-schema';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

const SORT = '-issuedAt';

type Invoice = z.infer<typeof InvoiceSchema>;

interface InvoiceRow {
  id: string;
  period_start: string;
  period_end: string;
  currency: string;
  amount_due: number;
  status: string;
  issued_at: Date;
  lines: Invoice['lines'];
}

export function invoicePageStatement(paging: Paging): SQLQuery {
  const keyset = newestFirst('issued_at', 'id', paging);
  return sql`
    select id, period_start::text as period_start, period_end::text as period_end, currency, amount_due::float8 as amount_due, status, issued_at, lines
      from invoices where ${keyset.where} ${keyset.order} ${keyset.window}`;
}

function invoiceOf(row: InvoiceRow): Invoice {
  return { id: row.id, periodStart: row.period_start, periodEnd: row.period_end, currency: row.currency, amountDue: row.amount_due, status: row.status, issuedAt: row.issued_at.toISOString(), lines: row.lines };
}

/** GET /billing/invoices: the invoice history, newest first. */
export function registerBillingRoutes(app: FastifyInstance, db: ConnectionPool, requestsPerMinute: number): void {
  app.withTypeProvider<ZodTypeProvider>().get('/billing/invoices', {
    schema: { querystring: InvoiceListQuerySchema, response: { 200: InvoiceListSchema, ...COMMON_ERRORS } },
    config: { policy: policyOf('GET /billing/invoices', requestsPerMinute) },
  }, async (request) => {
    const paging = pagingOf(request.query, SORT);
    const rows = await readAs(db, request, (tx) => tx.query(invoicePageStatement(paging)) as Promise<InvoiceRow[]>);
    return pageOf(rows, paging, SORT, (r) => ({ v: r.issued_at.toISOString(), id: r.id }), invoiceOf);
  });
}
