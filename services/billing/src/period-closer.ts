import { CURRENT_EVENT_VERSION, StoredEventSchema, type EventData, type StoredEvent } from '@earshot/contracts';
import { inTenant, sql, type ConnectionPool, type Queryable } from '@earshot/db';
import { TOPICS, type EventLog } from '@earshot/log';
import { UNFENCED, type Fence } from '@earshot/server';
import { eventsTopic } from '@earshot/topics';
import { periodAt, periodName, eventLines, priceUsage } from '@earshot/billing-rules';
import { firstMeteredDay, lastInvoice, readPlan, readQuantities } from '@earshot/read-models';

/** Who appends invoices, where a provider's name goes. */
export const BILLING_PROVIDER = 'earshot-billing';

export interface CloseOptions {
  db: ConnectionPool;
  log: EventLog;
  now: Date;
  /**
   * How long after a period's end before it may close: an event is stamped
   * received just before the log holds it, so one received before the end is
   * in the log by then.
   */
  settleMs: number;
}

/**
 * Whether the read models hold every record the log held at this moment: the
 * projector's next offset on each partition of both metered topics has
 * reached the partition's end.
 */
export async function projectorCaughtUp(db: Queryable, log: EventLog): Promise<boolean> {
  const ends = [...(await log.ends(TOPICS.events)), ...(await log.ends(TOPICS.deliveries))];
  const positions = (await db.query(sql`select topic, partition, next_offset::text as next_offset from projector_positions`)) as {
    topic: string;
    partition: number;
    next_offset: string;
  }[];
  const at = new Map(positions.map((p) => [`${p.topic}:${p.partition}`, BigInt(p.next_offset)]));
  return ends.every((e) => (at.get(`${e.topic}:${e.partition}`) ?? 0n) >= BigInt(e.end));
}

/** The invoice of the tenant's oldest period not yet invoiced, once that period has ended and settled; null when none is due. */
async function dueInvoice(tx: Queryable, tenantId: string, createdAt: Date, now: Date, settleMs: number): Promise<StoredEvent | null> {
  const plan = await readPlan(tx);
  const last = await lastInvoice(tx);
  const firstDay = await firstMeteredDay(tx);
  const firstUse = firstDay ? new Date(`${firstDay}T00:00:00Z`) : createdAt;
  const period = periodAt(last ? last.period_end : new Date(Math.min(firstUse.getTime(), createdAt.getTime())), plan.period);
  if (now.getTime() < period.end.getTime() + settleMs) return null;

  const priced = priceUsage(plan, await readQuantities(tx, period));
  const name = periodName(period, plan.period);
  const data: EventData<'invoice.issued'> = {
    invoice_id: `inv-${name}`,
    number: (last?.number ?? 0) + 1,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    status: 'issued',
    plan_id: plan.id,
    currency: plan.currency,
    lines: eventLines(priced.lines),
    subtotal_cents: priced.subtotalCents,
    base_fee_cents: priced.baseFeeCents,
    total_cents: priced.totalCents,
  };
  return StoredEventSchema.parse({
    type: 'invoice.issued',
    version: CURRENT_EVENT_VERSION,
    idempotency_key: `invoice:${tenantId}:${name}`,
    occurred_at: now.toISOString(),
    received_at: now.toISOString(),
    tenant: tenantId,
    provider: BILLING_PROVIDER,
    call: null,
    data,
  });
}

/**
 * One pass of the period closer: for each tenant, the oldest ended period
 * without an invoice gets its invoice.issued, numbered after the last one.
 * Only once the projector has caught up, so the meters are final. One period
 * per tenant a pass: the next number comes from the projected invoice. The
 * idempotency key `invoice:<tenant>:<period>` makes a repeat (a pass before
 * the last invoice was projected, a restart) a duplicate the projector
 * drops. The billing module runs it in one process at a time, under a
 * lease; `fence` confirms the lease before the invoices are appended.
 */
export async function closePeriods({ db, log, now, settleMs }: CloseOptions, fence: Fence = UNFENCED): Promise<{ issued: StoredEvent[] }> {
  if (!(await projectorCaughtUp(db, log))) return { issued: [] };
  const tenants = (await db.query(sql`select id::text as id, created_at from tenants order by id`)) as { id: string; created_at: Date }[];
  const issued: StoredEvent[] = [];
  for (const tenant of tenants) {
    const invoice = await inTenant(db, tenant.id, (tx) => dueInvoice(tx, tenant.id, tenant.created_at, now, settleMs));
    if (invoice) issued.push(invoice);
  }
  if (issued.length === 0) return { issued };
  await fence.confirm();
  await log.append(issued.map((e) => eventsTopic.record(e, { recordId: e.idempotency_key })));
  return { issued };
}
