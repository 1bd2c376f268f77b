import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventData } from '@earshot/contracts';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { pageOf, pagingOf, type Paging } from '@earshot/server';
import { logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { invoiceRows, lastInvoice, type InvoiceRow } from './invoices.queries';

const tenant = randomUUID();
const KINDS = { value: 'time', id: 'text' } as const;
/** The invoice of one month of 2025 (1-based), issued at `issuedAt`. */
const issued = (month: number, issuedAt: string, data: Partial<EventData<'invoice.issued'>> = {}, key = `inv-${month}`) =>
  sampleEvent('invoice.issued', {
    tenant,
    idempotency_key: key,
    occurred_at: issuedAt,
    data: {
      invoice_id: `inv_2025_${String(month).padStart(2, '0')}`,
      number: month,
      period_start: new Date(Date.UTC(2025, month - 1, 1)).toISOString(),
      period_end: new Date(Date.UTC(2025, month, 1)).toISOString(),
      ...data,
    },
  });

describe('the invoices read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;
  const rows = (paging: Paging) => inTenant(db, tenant, (tx) => invoiceRows(tx, paging));
  // The cursor GET /billing/invoices hands out after a page.
  const cursorAfter = (page: InvoiceRow[], paging: Paging) =>
    pageOf(
      page,
      paging,
      (r) => ({ v: r.issued_at.toISOString(), id: r.id }),
      (r) => r.id,
    ).nextCursor ?? undefined;

  beforeAll(async () => {
    store = await readModelStore('invoice_queries');
    db = store.db;
    const events = [
      issued(1, '2025-02-01T01:00:00.000Z'),
      // Two periods invoiced in one run, at the same instant: the id breaks the tie, ascending.
      issued(3, '2025-04-01T01:00:00.000Z', { total_cents: 1_234_567_890_123 }),
      issued(2, '2025-04-01T01:00:00.000Z'),
      // January's invoice paid later: the later record replaces the first, issued_at with it.
      issued(1, '2025-05-01T01:00:00.000Z', { status: 'paid' }, 'inv-1:paid'),
    ];
    const other = sampleEvent('invoice.issued', {
      tenant: randomUUID(),
      idempotency_key: 'other',
      data: { invoice_id: 'inv_2025_04', number: 4, period_start: '2025-04-01T00:00:00.000Z', period_end: '2025-05-01T00:00:00.000Z' },
    });
    const outcome = await store.apply(logRecords([...events, other], 0n));
    expect(outcome).toMatchObject({ applied: 5, deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('pages the invoices newest issued first, the id breaking ties, a re-issued one in its new place', async () => {
    const first = pagingOf({ limit: 2 }, KINDS);
    const page1 = await rows(first);
    expect(page1.map((r) => [r.id, r.status])).toEqual([
      ['inv_2025_01', 'paid'],
      ['inv_2025_02', 'issued'],
      ['inv_2025_03', 'issued'],
    ]);
    const second = pagingOf({ limit: 2, cursor: cursorAfter(page1, first) }, KINDS);
    const page2 = await rows(second);
    expect(page2.map((r) => r.id)).toEqual(['inv_2025_03']);
    expect(cursorAfter(page2, second)).toBeUndefined();
  });

  it('reads an invoice’s amounts as numbers and its lines as the event gave them', async () => {
    const [, , march] = await rows(pagingOf({ limit: 5 }, KINDS));
    expect(march).toEqual({
      id: 'inv_2025_03',
      number: 3,
      period_start: new Date('2025-03-01T00:00:00.000Z'),
      period_end: new Date('2025-04-01T00:00:00.000Z'),
      status: 'issued',
      plan_id: 'starter',
      currency: 'USD',
      lines: [
        {
          meter: 'call_minutes',
          description: 'Call minutes',
          quantity: 1_250,
          included: 1_000,
          billable: 250,
          unit_size: 1,
          unit_price_cents: 2,
          amount_cents: 500,
        },
      ],
      subtotal_cents: 500,
      base_fee_cents: 0,
      total_cents: 1_234_567_890_123,
      issued_at: new Date('2025-04-01T01:00:00.000Z'),
    });
  });

  it('gives the period closer the latest invoiced period by its start, not by when it was issued', async () => {
    // January was re-issued last, but March is the latest period invoiced.
    expect(await inTenant(db, tenant, (tx) => lastInvoice(tx))).toEqual({ number: 3, period_end: new Date('2025-04-01T00:00:00.000Z') });
  });

  it('shows another tenant none of these invoices, and no last invoice', async () => {
    const stranger = randomUUID();
    expect(await inTenant(db, stranger, (tx) => invoiceRows(tx, pagingOf({ limit: 10 }, KINDS)))).toEqual([]);
    expect(await inTenant(db, stranger, (tx) => lastInvoice(tx))).toBeUndefined();
  });
});
