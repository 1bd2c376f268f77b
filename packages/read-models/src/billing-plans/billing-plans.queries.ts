import { DEFAULT_PLAN, planOfRow } from '@earshot/billing-rules';
import type { PricePlan } from '@earshot/contracts';
import { sql, type Statements } from '@earshot/db';

/** The tenant's plan in force (inside its tenant transaction): the operator's latest, else the default. */
export async function readPlan(tx: Statements): Promise<PricePlan> {
  const [row] = (await tx.query(sql`select plan_id, currency, base_fee_cents, period, prices from billing_plans`)) as Parameters<typeof planOfRow>[0][];
  return row ? planOfRow(row) : DEFAULT_PLAN;
}

/** The id of the tenant's plan in force, or null for the default plan (no plan changed yet). */
export async function planIdInForce(tx: Statements): Promise<string | null> {
  const [row] = (await tx.query(sql`select plan_id from billing_plans`)) as { plan_id: string }[];
  return row?.plan_id ?? null;
}
