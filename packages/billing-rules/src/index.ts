export { periodAt, periodName, type BillingPeriod } from './billing-period';
export { eventLines, linesOfEvent, planEventData, planOfRow } from './event-shapes';
export { usageReport } from './period-usage';
export { DEFAULT_PLAN, priceLine, priceUsage, type MeterQuantities, type PricedUsage } from './pricing';
