import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN } from '@earshot/billing-rules';
import type { EventData } from '@earshot/contracts';
import { inTenant, type ConnectionPool } from '@earshot/db';
import { sampleEvent } from '@earshot/events/samples';
import { logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';
import { planIdInForce, readPlan } from './billing-plans.queries';

const tenant = randomUUID();
const elsewhere = randomUUID();
const changed = (to: string, minute: number, data: Partial<EventData<'billing.plan.changed'>>) =>
  sampleEvent('billing.plan.changed', {
    tenant: to,
    idempotency_key: `plan:${minute}`,
    occurred_at: `2026-01-08T09:${String(minute).padStart(2, '0')}:00.000Z`,
    data,
  });

describe('the billing plans read model’s queries', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;

  beforeAll(async () => {
    store = await readModelStore('billing_plan_queries');
    db = store.db;
    const events = [
      // The latest change by stamp is in force, whatever order the log holds them in.
      changed(tenant, 20, {
        plan_id: 'growth',
        currency: 'EUR',
        base_fee_cents: 4_900,
        period: 'month',
        prices: [
          { meter: 'calls', included: 5_000, unit_size: 1, unit_price_cents: 1, limit: 50_000 },
          { meter: 'api_requests', included: 0, unit_size: 1_000, unit_price_cents: 3, limit: null },
        ],
      }),
      changed(tenant, 10, { plan_id: 'starter' }),
      changed(elsewhere, 30, { plan_id: 'enterprise' }),
    ];
    const outcome = await store.apply(logRecords(events, 0n));
    expect(outcome).toMatchObject({ applied: 3, deadLettered: 0 });
  });
  afterAll(() => store?.close());

  it('reads the tenant’s latest plan change as its plan in force', async () => {
    expect(await inTenant(db, tenant, (tx) => readPlan(tx))).toEqual({
      id: 'growth',
      currency: 'EUR',
      baseFeeCents: 4_900,
      period: 'month',
      prices: [
        { meter: 'calls', included: 5_000, unitSize: 1, unitPriceCents: 1, limit: 50_000 },
        { meter: 'api_requests', included: 0, unitSize: 1_000, unitPriceCents: 3, limit: null },
      ],
    });
    expect(await inTenant(db, tenant, (tx) => planIdInForce(tx))).toBe('growth');
  });

  it('keeps each tenant to its own plan', async () => {
    expect(await inTenant(db, elsewhere, (tx) => planIdInForce(tx))).toBe('enterprise');
    expect((await inTenant(db, elsewhere, (tx) => readPlan(tx))).id).toBe('enterprise');
  });

  it('puts a tenant whose plan never changed on the default plan, with no plan id', async () => {
    const fresh = randomUUID();
    expect(await inTenant(db, fresh, (tx) => readPlan(tx))).toEqual(DEFAULT_PLAN);
    expect(await inTenant(db, fresh, (tx) => planIdInForce(tx))).toBeNull();
  });
});
