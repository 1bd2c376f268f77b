import type { Config } from '@earshot/config';
import {
  RetentionSchema,
  TenantDataSettingsSchema,
  type EffectiveRetention,
  type Keep,
  type RetainedKind,
  type Retention,
  type TenantDataSettings,
} from '@earshot/contracts';
import { inTenant, ownerInTenant, platformQuery, sql, type ConnectionPool, type Queryable } from '@earshot/db';
import { planIdInForce } from '@earshot/read-models';

/** The plan of a tenant the operator has not given one (billing's DEFAULT_PLAN). */
const DEFAULT_PLAN_ID = 'default';

/** What applies where neither a tenant nor its plan says: the deployment's configuration. */
export interface DeploymentDefaults {
  abandonAfterMs: number;
  retention: Record<RetainedKind, Keep>;
}

export function deploymentDefaults(config: Config): DeploymentDefaults {
  return {
    abandonAfterMs: config.EARSHOT_ABANDON_AFTER,
    retention: {
      calls: config.EARSHOT_RETENTION_CALLS,
      deliveries: config.EARSHOT_RETENTION_DELIVERIES,
      deadLetters: config.EARSHOT_RETENTION_DEAD_LETTERS,
      auditEntries: config.EARSHOT_RETENTION_AUDIT,
    },
  };
}

export interface EffectiveSettings {
  planId: string;
  abandonAfterMs: number;
  retention: EffectiveRetention;
}

const NO_RETENTION: Retention = RetentionSchema.parse({});

/** Every tenant's own settings, as the operator set them: one statement for a whole round of a job, as the platform role (the table forces row-level security). */
export async function allTenantSettings(db: ConnectionPool): Promise<Map<string, TenantDataSettings>> {
  const rows = (await platformQuery(db, sql`select tenant_id::text as tenant_id, abandon_after_ms, retention from tenant_data_settings`)) as {
    tenant_id: string;
    abandon_after_ms: number | null;
    retention: unknown;
  }[];
  return new Map(rows.map((r) => [r.tenant_id, TenantDataSettingsSchema.parse({ abandonAfterMs: r.abandon_after_ms, retention: r.retention })]));
}

export async function tenantSettings(db: ConnectionPool, tenantId: string): Promise<TenantDataSettings> {
  const [row] = (await ownerInTenant(db, tenantId, (tx) =>
    tx.query(sql`select abandon_after_ms, retention from tenant_data_settings where tenant_id = ${tenantId}`),
  )) as {
    abandon_after_ms: number | null;
    retention: unknown;
  }[];
  return TenantDataSettingsSchema.parse(row ? { abandonAfterMs: row.abandon_after_ms, retention: row.retention } : {});
}

export async function saveTenantSettings(db: ConnectionPool, tenantId: string, settings: TenantDataSettings, at: Date): Promise<void> {
  await ownerInTenant(db, tenantId, (tx) =>
    tx.query(sql`
      insert into tenant_data_settings (tenant_id, abandon_after_ms, retention, updated_at)
      values (${tenantId}, ${settings.abandonAfterMs}, ${JSON.stringify(settings.retention)}::jsonb, ${at})
      on conflict (tenant_id) do update set abandon_after_ms = excluded.abandon_after_ms, retention = excluded.retention, updated_at = excluded.updated_at`),
  );
}

/** Every plan's retention, by plan id. */
export async function allPlanRetention(db: Queryable): Promise<Map<string, Retention>> {
  const rows = (await db.query(sql`select plan_id, retention from plan_retention`)) as { plan_id: string; retention: unknown }[];
  return new Map(rows.map((r) => [r.plan_id, RetentionSchema.parse(r.retention)]));
}

export async function savePlanRetention(db: Queryable, planId: string, retention: Retention, at: Date): Promise<void> {
  await db.query(sql`
    insert into plan_retention (plan_id, retention, updated_at) values (${planId}, ${JSON.stringify(retention)}::jsonb, ${at})
    on conflict (plan_id) do update set retention = excluded.retention, updated_at = excluded.updated_at`);
}

/** The id of the tenant's plan in force, from the billing read model (which row-level security shows only inside the tenant's transaction). */
export async function planIdOf(db: ConnectionPool, tenantId: string): Promise<string> {
  return (await inTenant(db, tenantId, planIdInForce)) ?? DEFAULT_PLAN_ID;
}

/** The tenant's setting, else its plan's, else the deployment's, per kind. */
export function resolveSettings(
  own: TenantDataSettings | undefined,
  planId: string,
  plan: Retention | undefined,
  defaults: DeploymentDefaults,
): EffectiveSettings {
  const mine = own?.retention ?? NO_RETENTION;
  const planned = plan ?? NO_RETENTION;
  const pick = (kind: RetainedKind) => {
    const fromTenant = mine[kind];
    if (fromTenant !== null) return { keep: fromTenant, from: 'tenant' as const };
    const fromPlan = planned[kind];
    if (fromPlan !== null) return { keep: fromPlan, from: 'plan' as const };
    return { keep: defaults.retention[kind], from: 'deployment' as const };
  };
  const retention: EffectiveRetention = {
    calls: pick('calls'),
    deliveries: pick('deliveries'),
    deadLetters: pick('deadLetters'),
    auditEntries: pick('auditEntries'),
  };
  return { planId, abandonAfterMs: own?.abandonAfterMs ?? defaults.abandonAfterMs, retention };
}
