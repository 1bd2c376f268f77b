import type { RegisterProjection } from '../projection';

/** One row per invoice id; a later event about the same invoice (a status change re-issued by stamp) replaces it. */
export const invoices: RegisterProjection = {
  kind: 'register',
  name: 'invoices',
  version: 1,
  table: 'billing_invoices',
  key: ['id'],
  handles: ['invoice.issued'],
  rows({ event, stamp }) {
    if (event.type !== 'invoice.issued') return [];
    const d = event.data;
    return [
      {
        id: d.invoice_id,
        number: d.number,
        period_start: d.period_start,
        period_end: d.period_end,
        status: d.status,
        plan_id: d.plan_id,
        currency: d.currency,
        lines: Array.isArray(d.lines) ? d.lines : [],
        subtotal_cents: d.subtotal_cents,
        base_fee_cents: d.base_fee_cents,
        total_cents: d.total_cents,
        issued_at: event.occurred_at,
        precedence: stamp,
      },
    ];
  },
};
