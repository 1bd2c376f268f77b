import { z } from 'zod';
import { meterQuantity } from '../text';
import { nonNegativeLong } from '../events/fields';
import { BILLING_PERIODS, INVOICE_STATUSES } from '../events/tenant-data';
import { listPageSchema, pagingQuery } from './list';

/** What a tenant is metered on, each exact against the log. */
export const METERS = ['events_ingested', 'calls', 'call_minutes', 'api_requests', 'stored_megabytes'] as const;
export type Meter = (typeof METERS)[number];

/** A plan's price of one meter: `unitPriceCents` per `unitSize` units beyond the `included` quantity of each period. */
export const MeterPriceSchema = z.strictObject({
  meter: z.enum(METERS),
  included: meterQuantity.default(0),
  unitSize: meterQuantity.positive().default(1),
  unitPriceCents: nonNegativeLong,
  /** A soft cap shown in GET /usage; null for none. */
  limit: meterQuantity.nullable().default(null),
});

/**
 * "Each meter at most once" as JSON Schema says it (2020-12 `maxContains`,
 * one clause per meter), so the OpenAPI document and its fuzzers know a
 * repeated meter is invalid: the refinement below is what enforces it.
 */
const EACH_METER_AT_MOST_ONCE = {
  allOf: METERS.map((meter) => ({
    contains: { type: 'object', properties: { meter: { const: meter } }, required: ['meter'] },
    minContains: 0,
    maxContains: 1,
  })),
};

export const PricePlanSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('USD'),
  baseFeeCents: nonNegativeLong.default(0),
  /** Length of a billing period: calendar months (UTC), or days for trials and tests. */
  period: z.enum(BILLING_PERIODS).default('month'),
  prices: z
    .array(MeterPriceSchema)
    .max(METERS.length)
    .refine((prices) => new Set(prices.map((p) => p.meter)).size === prices.length, 'each meter is priced at most once')
    .meta(EACH_METER_AT_MOST_ONCE),
});
export type PricePlan = z.infer<typeof PricePlanSchema>;

export const InvoiceLineSchema = z.object({
  meter: z.enum(METERS),
  description: z.string(),
  quantity: z.number(),
  included: z.number(),
  billable: z.number(),
  unitSize: z.number(),
  unitPriceCents: z.number().int(),
  amountCents: z.number().int(),
});
export type InvoiceLine = z.infer<typeof InvoiceLineSchema>;

export const BillingInvoiceSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
  status: z.enum(INVOICE_STATUSES),
  planId: z.string(),
  currency: z.string(),
  lines: z.array(InvoiceLineSchema),
  subtotalCents: z.number().int(),
  baseFeeCents: z.number().int(),
  totalCents: z.number().int(),
  issuedAt: z.string(),
});

/**
 * The current period of GET /usage: what each meter stands at against the
 * plan (the charge so far), and where it ends if use goes on at the same rate.
 */
export const UsagePeriodSchema = z.object({
  start: z.string(),
  end: z.string(),
  planId: z.string(),
  currency: z.string(),
  meters: z.array(InvoiceLineSchema.extend({ limit: z.number().nullable(), projectedQuantity: z.number(), projectedAmountCents: z.number().int() })),
  baseFeeCents: z.number().int(),
  totalCents: z.number().int(),
  projectedTotalCents: z.number().int(),
});
export type UsagePeriod = z.infer<typeof UsagePeriodSchema>;

export const InvoiceListQuerySchema = pagingQuery(24, { value: 'time', id: 'text' });
export const InvoiceListSchema = listPageSchema(BillingInvoiceSchema);

export const TenantPlanParamsSchema = z.object({ id: z.uuid() });
/** PUT /admin/tenants/{id}/plan answers the plan as it will be in force once the projector applies it. */
export const TenantPlanAnswerSchema = z.object({ ok: z.literal(true), tenantId: z.string(), plan: PricePlanSchema });
