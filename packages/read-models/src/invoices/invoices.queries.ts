import type { z } from 'zod';
import type { BillingInvoiceSchema } from '@earshot/contracts';
import { sql, type Statements } from '@earshot/db';
import { newestFirst, type Paging } from '@earshot/server';

type Invoice = z.infer<typeof BillingInvoiceSchema>;

export interface InvoiceRow {
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

/** A page of the tenant’s invoices, newest issued first: one per billing period, few enough to sort without an index of their own. */
export async function invoiceRows(tx: Statements, paging: Paging): Promise<InvoiceRow[]> {
  const keyset = newestFirst('issued_at', 'id', paging);
  return (await tx.query(sql`
    select id, number, period_start, period_end, status, plan_id, currency, lines, subtotal_cents, base_fee_cents, total_cents, issued_at
      from billing_invoices where ${keyset.where} ${keyset.order} ${keyset.window}`)) as InvoiceRow[];
}

/** The number and end of the tenant's latest invoiced period, or undefined before its first invoice. */
export async function lastInvoice(tx: Statements): Promise<{ number: number; period_end: Date } | undefined> {
  const [last] = (await tx.query(sql`select number::int as number, period_end from billing_invoices order by period_start desc limit 1`)) as {
    number: number;
    period_end: Date;
  }[];
  return last;
}
