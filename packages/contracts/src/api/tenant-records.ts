import { z } from 'zod';
import { ALERT_COMPARISONS, ALERT_SEVERITIES, INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../events/tenant-data';
import { freeText, listPageSchema, pagingQuery, queryTime } from './list';
import { NUMBER_BOUNDS, storedText, usdAmount } from '../text';

/** A client-chosen id: writing the same id again replaces (upserts) the record. */
const recordId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'letters, digits and . _ : - (1 to 128)');

export const OutcomeSchema = z.object({
  id: z.string(),
  callId: z.string(),
  agent: z.string().nullable(),
  type: z.string(),
  value: z.string().nullable(),
  source: z.string().nullable(),
  revenueUsd: z.number().nullable(),
  recordedAt: z.string(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

export const OutcomeInputSchema = z.strictObject({
  id: recordId.optional(),
  callId: freeText(200),
  agent: freeText(200).optional(),
  type: freeText(100),
  value: storedText(2_000).optional(),
  source: freeText(100).optional(),
  revenueUsd: usdAmount.optional().describe(`US dollars, ±${NUMBER_BOUNDS.usd.toLocaleString('en-US')}`),
});
export type OutcomeInput = z.infer<typeof OutcomeInputSchema>;

export const OutcomeListQuerySchema = pagingQuery(100, { value: 'time', id: 'text' }).extend({ callId: storedText(200).min(1).optional() });
/** The spec's Outcome list, in the shared list shape; `source` names the store that served it. */
export const OutcomeListSchema = listPageSchema(OutcomeSchema).extend({ source: z.string() });

export const IncidentSchema = z.object({
  id: z.string(),
  title: z.string(),
  severity: z.string(),
  status: z.string(),
  description: z.string().nullable(),
  affectedAgents: z.array(z.string()),
  affectedCalls: z.array(z.string()),
  startedAt: z.string().nullable(),
  openedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  notes: z.array(z.object({ at: z.string(), note: z.string(), by: z.string().nullable() })),
});

export const IncidentInputSchema = z.strictObject({
  id: recordId.optional(),
  title: freeText(300),
  severity: z.enum(INCIDENT_SEVERITIES),
  status: z.enum(INCIDENT_STATUSES).default('open'),
  description: storedText(10_000).optional(),
  affectedAgents: z.array(freeText(200)).max(100).default([]),
  affectedCalls: z.array(freeText(200)).max(1_000).default([]),
  startedAt: queryTime.optional(),
  openedBy: freeText(200).optional(),
});
export type IncidentInput = z.infer<typeof IncidentInputSchema>;

export const IncidentListQuerySchema = pagingQuery(50, { value: 'time', id: 'text' }).extend({ status: z.enum(INCIDENT_STATUSES).optional() });
export const IncidentListSchema = listPageSchema(IncidentSchema);

export const DeploymentSchema = z.object({
  id: z.string(),
  agent: z.string(),
  version: z.string(),
  deployedAt: z.string(),
  previousVersion: z.string().nullable(),
  environment: z.string().nullable(),
  description: z.string().nullable(),
  deployedBy: z.string().nullable(),
});

export const DeploymentInputSchema = z.strictObject({
  id: recordId.optional(),
  agent: freeText(200),
  version: freeText(100),
  deployedAt: queryTime.optional().describe('defaults to when the request arrived'),
  previousVersion: freeText(100).optional(),
  environment: freeText(100).optional(),
  description: storedText(10_000).optional(),
  deployedBy: freeText(200).optional(),
});
export type DeploymentInput = z.infer<typeof DeploymentInputSchema>;

export const DeploymentListQuerySchema = pagingQuery(50, { value: 'time', id: 'text' }).extend({ agent: storedText(200).min(1).optional() });
export const DeploymentListSchema = listPageSchema(DeploymentSchema);
export const DeploymentAnswerSchema = z.object({ ok: z.literal(true), deployment: DeploymentSchema });

export const AlertSchema = z.object({
  id: z.string(),
  ruleId: z.string(),
  ruleName: z.string().nullable(),
  metric: z.string(),
  comparison: z.enum(ALERT_COMPARISONS).nullable(),
  threshold: z.number().nullable(),
  value: z.number().nullable(),
  windowMs: z.number().int().nullable(),
  severity: z.enum(ALERT_SEVERITIES).nullable(),
  agentId: z.string().nullable(),
  message: z.string().nullable(),
  status: z.enum(['firing', 'resolved']),
  firedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedValue: z.number().nullable(),
  resolution: z.string().nullable(),
  resolvedBy: z.string().nullable(),
});

export const AlertListQuerySchema = pagingQuery(50, { value: 'time', id: 'text' }).extend({ status: z.enum(['firing', 'resolved']).optional() });
export const AlertListSchema = listPageSchema(AlertSchema);
