import { describe, expect, it } from 'vitest';
import { PricePlanSchema } from '@earshot/contracts';
import { periodAt, periodName } from './billing-period';
import { usageReport } from './period-usage';
import { priceUsage, type MeterQuantities } from './pricing';

const plan = PricePlanSchema.parse({
  id: 'growth',
  baseFeeCents: 4_900,
  prices: [
    { meter: 'call_minutes', included: 100, unitPriceCents: 3 },
    { meter: 'events_ingested', included: 1_000, unitSize: 1_000, unitPriceCents: 10 },
    { meter: 'calls', unitPriceCents: 1, limit: 500 },
  ],
});
const none: MeterQuantities = { events_ingested: 0, calls: 0, call_minutes: 0, api_requests: 0, stored_megabytes: 0 };

describe('priceUsage', () => {
  it('charges each started unit beyond the included quantity, plus the base fee', () => {
    const priced = priceUsage(plan, { ...none, call_minutes: 100.5, events_ingested: 2_001, calls: 7, api_requests: 99 });
    expect(priced.lines.map((l) => [l.meter, l.billable, l.amountCents])).toEqual([
      ['call_minutes', 0.5, 3],
      ['events_ingested', 1_001, 20],
      ['calls', 7, 7],
    ]);
    expect(priced).toMatchObject({ subtotalCents: 30, baseFeeCents: 4_900, totalCents: 4_930 });
  });

  it('charges nothing within the allowance and keeps float noise from adding a unit', () => {
    expect(priceUsage(plan, { ...none, call_minutes: 100, events_ingested: 1_000 }).subtotalCents).toBe(0);
    expect(priceUsage(plan, { ...none, call_minutes: 100 + 0.1 + 0.2 - 0.3 }).lines[0]?.amountCents).toBe(0);
  });

  it('refuses a plan that prices a meter twice', () => {
    expect(
      PricePlanSchema.safeParse({
        id: 'x',
        prices: [
          { meter: 'calls', unitPriceCents: 1 },
          { meter: 'calls', unitPriceCents: 2 },
        ],
      }).success,
    ).toBe(false);
  });
});

describe('billing periods', () => {
  it('are calendar months or days in UTC, named by their start', () => {
    const at = new Date('2026-12-31T23:59:59.999Z');
    expect(periodAt(at, 'month')).toEqual({ start: new Date('2026-12-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    expect(periodAt(at, 'day')).toEqual({ start: new Date('2026-12-31T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') });
    expect(periodName(periodAt(at, 'month'), 'month')).toBe('2026-12');
    expect(periodName(periodAt(at, 'day'), 'day')).toBe('2026-12-31');
  });
});

describe('usageReport', () => {
  it('shows every meter against the plan and projects the period at the same rate', () => {
    const period = periodAt(new Date('2026-04-01T00:00:00Z'), 'month');
    const report = usageReport(plan, period, { ...none, calls: 100 }, new Date('2026-04-11T00:00:00Z'));
    expect(report.meters.map((m) => m.meter)).toEqual(['events_ingested', 'calls', 'call_minutes', 'api_requests', 'stored_megabytes']);
    expect(report.meters[1]).toMatchObject({ quantity: 100, amountCents: 100, limit: 500, projectedQuantity: 300, projectedAmountCents: 300 });
    expect(report).toMatchObject({ totalCents: 5_000, projectedTotalCents: 5_200, start: '2026-04-01T00:00:00.000Z', end: '2026-05-01T00:00:00.000Z' });
  });
});
