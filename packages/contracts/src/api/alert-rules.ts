import { z } from 'zod';
import { ALERT_COMPARISONS, ALERT_SEVERITIES } from '../events/tenant-data';
import { freeText, listPageSchema, pagingQuery } from './list';
import { measuredValue, storedText } from '../text';
import { MetricNameSchema } from './operations';

const recordId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'letters, digits and . _ : - (1 to 128)');
const MINUTE = 60_000;

/** A rule as a tenant writes it: "p95 total latency > 1,200 ms over 5 minutes, held for 5 minutes". */
export const AlertRuleInputSchema = z.strictObject({
  id: recordId.optional(),
  name: freeText(200).optional(),
  metric: MetricNameSchema.describe('a name from the GET /metrics catalogue'),
  agentId: storedText(200).min(1).optional().describe('watch one agent; all agents when left out'),
  comparison: z.enum(ALERT_COMPARISONS),
  threshold: measuredValue,
  windowMs: z
    .int()
    .min(MINUTE)
    .max(24 * 60 * MINUTE)
    .default(5 * MINUTE)
    .describe('the metric is computed over this window, ending at each evaluation'),
  forMs: z
    .int()
    .min(0)
    .max(24 * 60 * MINUTE)
    .default(0)
    .describe('how long the breach must hold before the alert fires'),
  severity: z.enum(ALERT_SEVERITIES).default('warning'),
  enabled: z.boolean().default(true),
  description: storedText(2_000).optional(),
});
export type AlertRuleInput = z.infer<typeof AlertRuleInputSchema>;

/** PATCH: some fields of a rule, never its id; left-out fields keep their value. */
export const AlertRulePatchSchema = AlertRuleInputSchema.omit({ id: true })
  .partial()
  .extend({
    agentId: storedText(200).min(1).nullable().optional(),
    windowMs: z
      .int()
      .min(MINUTE)
      .max(24 * 60 * MINUTE)
      .optional(),
    forMs: z
      .int()
      .min(0)
      .max(24 * 60 * MINUTE)
      .optional(),
    severity: z.enum(ALERT_SEVERITIES).optional(),
    enabled: z.boolean().optional(),
  });
export type AlertRulePatch = z.infer<typeof AlertRulePatchSchema>;

export const AlertRuleSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  metric: z.string(),
  agentId: z.string().nullable(),
  comparison: z.enum(ALERT_COMPARISONS),
  threshold: z.number(),
  windowMs: z.number().int(),
  forMs: z.number().int(),
  severity: z.enum(ALERT_SEVERITIES).nullable(),
  enabled: z.boolean(),
  description: z.string().nullable(),
  changedBy: z.string().nullable(),
  changedAt: z.string(),
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;

export const AlertRuleListQuerySchema = pagingQuery(50, { value: 'none', id: 'text' });
export const AlertRuleListSchema = listPageSchema(AlertRuleSchema);
export const AlertRuleAnswerSchema = z.object({ ok: z.literal(true), rule: AlertRuleSchema });
export const RecordIdParamsSchema = z.object({ id: storedText(200).min(1) });

/** Where the tenant's alert notifications go: one signed webhook per tenant. */
export const AlertWebhookInputSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).max(2_000),
  enabled: z.boolean().default(true),
});
export const AlertWebhookSchema = z.object({ ok: z.literal(true), url: z.string().nullable(), enabled: z.boolean(), updatedAt: z.string().nullable() });

/** One attempt to deliver a notification, as recorded. */
export const AlertNotificationSchema = z.object({
  id: z.string(),
  eventType: z.string(),
  alertId: z.string(),
  attempt: z.number().int(),
  url: z.string(),
  status: z.enum(['delivered', 'failed', 'retrying']),
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  at: z.string(),
});
export const AlertNotificationListQuerySchema = pagingQuery(50, { value: 'time', id: 'text' });
export const AlertNotificationListSchema = listPageSchema(AlertNotificationSchema);
