import { RETAINED_KINDS, type RetainedKind } from '@earshot/contracts';
import { inPlatform, sql, TENANT_SETTING, type ConnectionPool, type Queryable, type SQLQuery } from '@earshot/db';
import { deleteCallsStartedBefore } from '@earshot/read-models';
import { UNFENCED, type Fence } from '@earshot/server';
import { allPlanRetention, allTenantSettings, planIdOf, resolveSettings, type DeploymentDefaults } from './data-settings';

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  db: ConnectionPool;
  now: Date;
  defaults: DeploymentDefaults;
  /** EARSHOT_DEDUPE_WINDOW: how long the projector remembers an applied event's key. */
  dedupeWindowMs: number;
}

export type Deleted = Record<RetainedKind | 'appliedEvents', number>;

export type RetentionRun = { ran: false; day: string } | { ran: true; day: string; tenants: number; deleted: Deleted };

/** Deletes what one kind keeps no longer, for one tenant (null: dead letters that named none), answering how many rows went. */
async function trim(tx: Queryable, tenantId: string | null, kind: RetainedKind, before: Date): Promise<number> {
  const count = async (query: SQLQuery) =>
    ((await tx.query(sql`with gone as (${query} returning 1) select count(*)::int as n from gone`)) as { n: number }[])[0]?.n ?? 0;
  switch (kind) {
    case 'calls':
      // Dead letters may name no tenant; calls always have one.
      return tenantId === null ? 0 : deleteCallsStartedBefore(tx, tenantId, before);
    case 'deliveries':
      return count(sql`delete from deliveries where tenant_id = ${tenantId} and time < ${before}`);
    case 'deadLetters':
      return count(sql`delete from dead_letters where tenant_id is not distinct from ${tenantId} and received_at < ${before}`);
    case 'auditEntries':
      return count(sql`delete from audit_entries where tenant_id = ${tenantId} and at < ${before}`);
  }
}

/**
 * One pass of retention at `now`: per tenant, what its settings, else its
 * plan's, else the deployment's say each kind keeps (calls with their turns,
 * transcripts and traces by when they started; deliveries; dead letters;
 * audit entries), and the projector's applied-event keys older than the
 * dedupe window. Each tenant in one transaction as the owner with the
 * tenant's setting (forced row-level security shows the owner only that
 * tenant's rows). Deleting by cut-off is idempotent: a second pass, or one
 * in another process at the same time, deletes nothing more.
 */
export async function applyRetention(
  { db, now, defaults, dedupeWindowMs }: RetentionOptions,
  fence: Fence = UNFENCED,
): Promise<{ tenants: number; deleted: Deleted }> {
  const own = await allTenantSettings(db);
  const plans = await allPlanRetention(db);
  const tenants = (await db.query(sql`select id::text as id from tenants order by id`)) as { id: string }[];
  const deleted: Deleted = { calls: 0, deliveries: 0, deadLetters: 0, auditEntries: 0, appliedEvents: 0 };
  for (const { id: tenantId } of tenants) {
    const planId = await planIdOf(db, tenantId);
    const { retention } = resolveSettings(own.get(tenantId), planId, plans.get(planId), defaults);
    await fence.confirm();
    await db.tx(async (tx) => {
      await tx.query(sql`select set_config(${TENANT_SETTING}, ${tenantId}, true)`);
      for (const kind of RETAINED_KINDS) {
        const { keep } = retention[kind];
        if (keep !== 'forever') deleted[kind] += await trim(tx, tenantId, kind, new Date(now.getTime() - keep * DAY_MS));
      }
      const [applied] = (await tx.query(sql`
        with gone as (delete from applied_events where tenant_id = ${tenantId} and applied_at < ${new Date(now.getTime() - dedupeWindowMs)} returning 1)
        select count(*)::int as n from gone`)) as { n: number }[];
      deleted.appliedEvents += applied?.n ?? 0;
    });
  }
  // Dead letters of requests that named no tenant keep what the deployment says; no tenant setting shows them, the platform role does.
  const orphans = defaults.retention.deadLetters;
  if (orphans !== 'forever') deleted.deadLetters += await inPlatform(db, (tx) => trim(tx, null, 'deadLetters', new Date(now.getTime() - orphans * DAY_MS)));
  return { tenants: tenants.length, deleted };
}

/**
 * The daily job: a pass unless today's is in retention_runs, then today's
 * row with what it deleted (the log line and the row are what an operator
 * watches). Rounds may come as often as they like, from any process.
 */
export async function dailyRetention(options: RetentionOptions, fence: Fence = UNFENCED): Promise<RetentionRun> {
  const day = options.now.toISOString().slice(0, 10);
  if ((await options.db.query(sql`select 1 from retention_runs where day = ${day}`)).length > 0) return { ran: false, day };
  const { tenants, deleted } = await applyRetention(options, fence);
  await fence.confirm();
  await options.db.query(sql`
    insert into retention_runs (day, finished_at, fence, deleted) values (${day}, ${options.now}, ${fence.token}, ${JSON.stringify(deleted)}::jsonb)
    on conflict (day) do nothing`);
  return { ran: true, day, tenants, deleted };
}
