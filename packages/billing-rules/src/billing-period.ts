import type { PricePlan } from '@earshot/contracts';

/** A billing period: [start, end), whole UTC days. */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

/** The period holding `at`: its calendar month (UTC), or its UTC day. */
export function periodAt(at: Date, length: PricePlan['period']): BillingPeriod {
  const [y, m, d] = [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
  return length === 'month'
    ? { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) }
    : { start: new Date(Date.UTC(y, m, d)), end: new Date(Date.UTC(y, m, d + 1)) };
}

/** `2026-02` for a month, `2026-02-03` for a day: the period's name in invoice ids and idempotency keys. */
export function periodName(period: BillingPeriod, length: PricePlan['period']): string {
  return period.start.toISOString().slice(0, length === 'month' ? 7 : 10);
}
