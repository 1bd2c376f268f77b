import type { PricePlan, UsagePeriod } from '@earshot/contracts';
import { sql, type Statements } from '@earshot/db';
import type { BillingPeriod } from './billing-period';
import { planOfRow } from './event-shapes';
import { DEFAULT_PLAN, priceLine, priceUsage, type MeterQuantities } from './pricing';

/** The tenant's plan in force (inside its tenant transaction): the operator's latest, else the default. */
export async function readPlan(tx: Statements): Promise<PricePlan> {
  const [row] = (await tx.query(sql`select plan_id, currency, base_fee_cents, period, prices from billing_plans`)) as Parameters<typeof planOfRow>[0][];
  return row ? planOfRow(row) : DEFAULT_PLAN;
}

/** Every meter over a period, from the usage meters of its days (inside the tenant's transaction). */
export async function readQuantities(tx: Statements, period: BillingPeriod): Promise<MeterQuantities> {
  const [row] = (await tx.query(sql`
    select coalesce(sum(events_ingested), 0)::float8 as events_ingested, coalesce(sum(calls), 0)::float8 as calls,
           coalesce(sum(call_ms), 0)::float8 as call_ms, coalesce(sum(api_requests), 0)::float8 as api_requests,
           coalesce(sum(stored_bytes), 0)::float8 as stored_bytes
      from usage_meters
     where day >= (${period.start}::timestamptz at time zone 'UTC')::date and day < (${period.end}::timestamptz at time zone 'UTC')::date`)) as Record<
    'events_ingested' | 'calls' | 'call_ms' | 'api_requests' | 'stored_bytes',
    number
  >[];
  return {
    events_ingested: row?.events_ingested ?? 0,
    calls: row?.calls ?? 0,
    call_minutes: (row?.call_ms ?? 0) / 60_000,
    api_requests: row?.api_requests ?? 0,
    stored_megabytes: (row?.stored_bytes ?? 0) / 1_000_000,
  };
}

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
