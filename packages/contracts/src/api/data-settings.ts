import { z } from 'zod';

/** What the retention job trims, each by its own age: calls with their turns, transcripts and traces; ingest deliveries; dead letters; audit entries. */
export const RETAINED_KINDS = ['calls', 'deliveries', 'deadLetters', 'auditEntries'] as const;
export type RetainedKind = (typeof RETAINED_KINDS)[number];

/** Days a kind of record is kept, or `forever`. */
export const KeepSchema = z.union([z.int().min(1).max(36_500), z.literal('forever')]);
export type Keep = z.infer<typeof KeepSchema>;

/** Per kind: days kept, `forever`, or null to take the next level's (tenant, then plan, then the deployment's EARSHOT_RETENTION_*). */
const keepOrInherit = KeepSchema.nullable().default(null);
export const RetentionSchema = z.strictObject({ calls: keepOrInherit, deliveries: keepOrInherit, deadLetters: keepOrInherit, auditEntries: keepOrInherit });
export type Retention = z.infer<typeof RetentionSchema>;

/** Where a kept time comes from: the tenant's own setting, its plan's, or the deployment's default. */
export const RETENTION_LEVELS = ['tenant', 'plan', 'deployment'] as const;
const kept = z.object({ keep: KeepSchema, from: z.enum(RETENTION_LEVELS) });
/** What is kept in the end, per kind, and which level said so. */
export const EffectiveRetentionSchema = z.object({ calls: kept, deliveries: kept, deadLetters: kept, auditEntries: kept });
export type EffectiveRetention = z.infer<typeof EffectiveRetentionSchema>;

/** The shortest and longest silence after which a call may count as abandoned. */
export const ABANDON_AFTER_MIN_MS = 60_000;
export const ABANDON_AFTER_MAX_MS = 30 * 24 * 3_600_000;

/** PUT /admin/tenants/{id}/data-settings: the operator's settings for one tenant; null takes the plan's, then the deployment's. */
export const TenantDataSettingsSchema = z.strictObject({
  abandonAfterMs: z.int().min(ABANDON_AFTER_MIN_MS).max(ABANDON_AFTER_MAX_MS).nullable().default(null),
  retention: RetentionSchema.default({ calls: null, deliveries: null, deadLetters: null, auditEntries: null }),
});
export type TenantDataSettings = z.infer<typeof TenantDataSettingsSchema>;

export const TenantDataSettingsAnswerSchema = z.object({
  ok: z.literal(true),
  tenantId: z.string(),
  /** As the operator set them for this tenant. */
  settings: TenantDataSettingsSchema,
  /** What applies: the tenant's plan and the deployment fill what the tenant's settings leave null. */
  effective: z.object({ planId: z.string(), abandonAfterMs: z.int(), retention: EffectiveRetentionSchema }),
});

export const PlanRetentionParamsSchema = z.object({ planId: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/) });
/** PUT /admin/plans/{planId}/retention: what tenants on the plan keep, unless their own settings say otherwise. */
export const PlanRetentionSchema = z.strictObject({ retention: RetentionSchema });
export const PlanRetentionAnswerSchema = z.object({ ok: z.literal(true), planId: z.string(), retention: RetentionSchema });
