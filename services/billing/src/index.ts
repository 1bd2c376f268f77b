export { billingModule, type BillingOptions } from './billing';
export { closePeriods, projectorCaughtUp, type CloseOptions } from './period-closer';
