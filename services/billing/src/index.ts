export { billingModule, type BillingOptions } from './billing';
export { periodAt, periodName, type BillingPeriod } from './billing-period';
export { eventLines, linesOfEvent, planEventData } from './event-shapes';
export { closePeriods, projectorCaughtUp, type CloseOptions } from './period-closer';
export { readPlan, readQuantities, usageReport } from './period-usage';
export { DEFAULT_PLAN, priceLine, priceUsage, type MeterQuantities, type PricedUsage } from './pricing';
