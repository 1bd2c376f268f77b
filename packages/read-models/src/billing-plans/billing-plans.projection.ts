import type { RegisterProjection } from '../projection';

/** A tenant's price plan in force: the latest billing.plan.changed by stamp, one row per tenant. */
export const billingPlans: RegisterProjection = {
  kind: 'register',
  name: 'billing-plans',
  version: 1,
  table: 'billing_plans',
  key: [],
  handles: ['billing.plan.changed'],
  rows({ event, stamp }) {
    if (event.type !== 'billing.plan.changed') return [];
    const d = event.data;
    return [
      {
        plan_id: d.plan_id,
        currency: d.currency,
        base_fee_cents: d.base_fee_cents,
        period: d.period,
        prices: Array.isArray(d.prices) ? d.prices : [],
        changed_by: d.changed_by,
        changed_at: event.occurred_at,
        precedence: stamp,
      },
    ];
  },
};
