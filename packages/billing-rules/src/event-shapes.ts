import { z } from 'zod';
import { METERS, PricePlanSchema, type EventData, type InvoiceLine, type PricePlan } from '@earshot/contracts';

/**
 * The JSON inside billing events is snake_case, as their released schema
 * files document it; the API's contracts are camelCase. These are the two
 * directions, one place.
 */
const EventLineSchema = z.object({
  meter: z.enum(METERS),
  description: z.string(),
  quantity: z.number(),
  included: z.number(),
  billable: z.number(),
  unit_size: z.number(),
  unit_price_cents: z.number().int(),
  amount_cents: z.number().int(),
});

const EventPriceSchema = z.object({
  meter: z.enum(METERS),
  included: z.number(),
  unit_size: z.number(),
  unit_price_cents: z.number().int(),
  limit: z.number().nullable(),
});

export function eventLines(lines: readonly InvoiceLine[]): z.infer<typeof EventLineSchema>[] {
  return lines.map((l) => ({
    meter: l.meter,
    description: l.description,
    quantity: l.quantity,
    included: l.included,
    billable: l.billable,
    unit_size: l.unitSize,
    unit_price_cents: l.unitPriceCents,
    amount_cents: l.amountCents,
  }));
}

export function linesOfEvent(json: unknown): InvoiceLine[] {
  return z
    .array(EventLineSchema)
    .parse(json)
    .map((l) => ({
      meter: l.meter,
      description: l.description,
      quantity: l.quantity,
      included: l.included,
      billable: l.billable,
      unitSize: l.unit_size,
      unitPriceCents: l.unit_price_cents,
      amountCents: l.amount_cents,
    }));
}

export function planEventData(plan: PricePlan, changedBy: string | null): EventData<'billing.plan.changed'> {
  return {
    plan_id: plan.id,
    currency: plan.currency,
    base_fee_cents: plan.baseFeeCents,
    period: plan.period,
    prices: plan.prices.map((p) => ({ meter: p.meter, included: p.included, unit_size: p.unitSize, unit_price_cents: p.unitPriceCents, limit: p.limit })),
    changed_by: changedBy,
  };
}

/** A billing_plans row (the event's data as projected) back to the plan. */
export function planOfRow(row: { plan_id: string; currency: string; base_fee_cents: number | string; period: string; prices: unknown }): PricePlan {
  return PricePlanSchema.parse({
    id: row.plan_id,
    currency: row.currency,
    baseFeeCents: Number(row.base_fee_cents),
    period: row.period,
    prices: z
      .array(EventPriceSchema)
      .parse(row.prices)
      .map((p) => ({ meter: p.meter, included: p.included, unitSize: p.unit_size, unitPriceCents: p.unit_price_cents, limit: p.limit })),
  });
}
