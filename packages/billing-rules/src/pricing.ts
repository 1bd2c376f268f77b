import { PricePlanSchema, type InvoiceLine, type Meter, type PricePlan } from '@earshot/contracts';

/** What each meter stood at over a period. */
export type MeterQuantities = Record<Meter, number>;

const METER_DESCRIPTIONS: Readonly<Record<Meter, string>> = {
  events_ingested: 'Events ingested',
  calls: 'Calls',
  call_minutes: 'Call minutes',
  api_requests: 'API requests (ingest envelopes delivered)',
  stored_megabytes: 'Stored data (MB)',
};

/** The plan of a tenant the operator has not given one: a free allowance, then list prices. */
export const DEFAULT_PLAN: PricePlan = PricePlanSchema.parse({
  id: 'default',
  prices: [
    { meter: 'events_ingested', included: 100_000, unitSize: 1_000, unitPriceCents: 5 },
    { meter: 'calls', included: 1_000, unitPriceCents: 1 },
    { meter: 'call_minutes', included: 5_000, unitPriceCents: 1 },
    { meter: 'api_requests', included: 100_000, unitSize: 1_000, unitPriceCents: 2 },
    { meter: 'stored_megabytes', included: 1_000, unitSize: 1_000, unitPriceCents: 25 },
  ],
});

export interface PricedUsage {
  lines: InvoiceLine[];
  subtotalCents: number;
  baseFeeCents: number;
  totalCents: number;
}

// Quantities such as call minutes are fractions: rounding away float noise before ceil keeps 3.0000000004 units at 3.
const units = (billable: number, unitSize: number) => Math.ceil(Math.round((billable / unitSize) * 1e6) / 1e6);
const shown = (quantity: number) => Math.round(quantity * 10_000) / 10_000;

/** One meter's line: units of `unitSize` beyond the included quantity, each started unit charged whole. */
export function priceLine(plan: PricePlan, meter: Meter, quantity: number): InvoiceLine {
  const price = plan.prices.find((p) => p.meter === meter);
  const included = price?.included ?? 0;
  const unitSize = price?.unitSize ?? 1;
  const unitPriceCents = price?.unitPriceCents ?? 0;
  const billable = Math.max(0, quantity - included);
  return {
    meter,
    description: METER_DESCRIPTIONS[meter],
    quantity: shown(quantity),
    included,
    billable: shown(billable),
    unitSize,
    unitPriceCents,
    amountCents: units(billable, unitSize) * unitPriceCents,
  };
}

/** A period's usage priced by a plan: a line per meter the plan prices, the period's base fee, totals in cents. */
export function priceUsage(plan: PricePlan, quantities: MeterQuantities): PricedUsage {
  const lines = plan.prices.map((p) => priceLine(plan, p.meter, quantities[p.meter]));
  const subtotalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  return { lines, subtotalCents, baseFeeCents: plan.baseFeeCents, totalCents: subtotalCents + plan.baseFeeCents };
}
