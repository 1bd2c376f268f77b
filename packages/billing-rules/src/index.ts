export { periodAt, periodName, type BillingPeriod } from './billing-period';
export { eventLines, linesOfEvent, planEventData } from './event-shapes';
export { readPlan, readQuantities, usageReport } from './period-usage';
export { DEFAULT_PLAN, priceLine, priceUsage, type MeterQuantities, type PricedUsage } from './pricing';
