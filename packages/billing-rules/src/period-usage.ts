import type { PricePlan, UsagePeriod } from '@earshot/contracts';
import type { BillingPeriod } from './billing-period';
import { priceLine, priceUsage, type MeterQuantities } from './pricing';

/**
 * The period so far, priced, and where it would end at the same rate: each
 * quantity scaled by the period's length over the time elapsed in it.
 */
export function usageReport(plan: PricePlan, period: BillingPeriod, quantities: MeterQuantities, now: Date): UsagePeriod {
  const elapsed = Math.min(Math.max(now.getTime() - period.start.getTime(), 1), period.end.getTime() - period.start.getTime());
  const scale = (period.end.getTime() - period.start.getTime()) / elapsed;
  const priced = priceUsage(plan, quantities);
  const meters = (Object.keys(quantities) as (keyof MeterQuantities)[]).map((meter) => {
    const line = priceLine(plan, meter, quantities[meter]);
    const projected = priceLine(plan, meter, quantities[meter] * scale);
    return {
      ...line,
      limit: plan.prices.find((p) => p.meter === meter)?.limit ?? null,
      projectedQuantity: projected.quantity,
      projectedAmountCents: projected.amountCents,
    };
  });
  return {
    start: period.start.toISOString(),
    end: period.end.toISOString(),
    planId: plan.id,
    currency: plan.currency,
    meters,
    baseFeeCents: priced.baseFeeCents,
    totalCents: priced.totalCents,
    projectedTotalCents: plan.baseFeeCents + meters.reduce((sum, m) => sum + m.projectedAmountCents, 0),
  };
}
