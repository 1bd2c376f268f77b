import { z } from 'zod';
import { measuredValue, storedId, usdAmount } from '../text';
import { jsonValue, maybe, nonNegativeLong, timestamp } from './fields';

export const INCIDENT_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
/** `acknowledged` from event version 2026-11-22 on; an older version's event with it does not fit its schema and is dead-lettered. */
export const INCIDENT_STATUSES = ['open', 'acknowledged', 'investigating', 'identified', 'monitoring', 'resolved'] as const;
export const ALERT_COMPARISONS = ['gt', 'gte', 'lt', 'lte'] as const;
export const ALERT_SEVERITIES = ['critical', 'warning', 'info'] as const;
export const ALERT_RULE_ACTIONS = ['created', 'updated', 'deleted'] as const;
export const INVOICE_STATUSES = ['draft', 'issued', 'paid', 'void'] as const;
export const BILLING_PERIODS = ['month', 'day'] as const;

/** Contents of the tenant's own writes: outcomes, incidents, deployments and alerts. */
export const TENANT_DATA = {
  'outcome.recorded': z.looseObject({
    outcome_id: storedId,
    call_id: storedId,
    agent: maybe(z.string()),
    outcome_type: storedId,
    value: maybe(z.string()),
    source: maybe(z.string()),
    revenue_usd: maybe(usdAmount),
  }),
  'incident.created': z.looseObject({
    incident_id: storedId,
    title: storedId,
    severity: z.enum(INCIDENT_SEVERITIES),
    status: z.enum(INCIDENT_STATUSES),
    description: maybe(z.string()),
    affected_agents: z.array(z.string()).default([]),
    affected_calls: z.array(z.string()).default([]),
    started_at: maybe(timestamp),
    opened_by: maybe(z.string()),
  }),
  /** A partial change: null fields are unchanged. */
  'incident.updated': z.looseObject({
    incident_id: storedId,
    title: maybe(z.string()),
    severity: maybe(z.enum(INCIDENT_SEVERITIES)),
    status: maybe(z.enum(INCIDENT_STATUSES)),
    description: maybe(z.string()),
    note: maybe(z.string()),
    affected_agents: maybe(z.array(z.string())),
    affected_calls: maybe(z.array(z.string())),
    resolved_at: maybe(timestamp),
    updated_by: maybe(z.string()),
  }),
  'deployment.recorded': z.looseObject({
    deployment_id: storedId,
    agent: storedId,
    version: storedId,
    deployed_at: timestamp,
    previous_version: maybe(z.string()),
    environment: maybe(z.string()),
    description: maybe(z.string()),
    deployed_by: maybe(z.string()),
  }),
  'alert.fired': z.looseObject({
    alert_id: storedId,
    rule_id: storedId,
    rule_name: maybe(z.string()),
    metric: storedId,
    comparison: z.enum(ALERT_COMPARISONS),
    threshold: measuredValue,
    // Measured by the evaluator, not written by a client: finite (zod's number) is its only bound.
    value: z.number(),
    window_ms: nonNegativeLong,
    severity: maybe(z.enum(ALERT_SEVERITIES)),
    agent_id: maybe(z.string()),
    message: maybe(z.string()),
  }),
  'alert.resolved': z.looseObject({
    alert_id: storedId,
    rule_id: storedId,
    metric: maybe(z.string()),
    value: maybe(z.number()),
    fired_at: maybe(timestamp),
    resolution: maybe(z.string()),
    resolved_by: maybe(z.string()),
  }),
  /** The whole rule as it stands after the change; a deleted rule keeps its last fields. */
  'alert.rule.changed': z.looseObject({
    rule_id: storedId,
    action: z.enum(ALERT_RULE_ACTIONS),
    name: maybe(z.string()),
    metric: storedId,
    agent_id: maybe(z.string()),
    comparison: z.enum(ALERT_COMPARISONS),
    threshold: measuredValue,
    window_ms: nonNegativeLong,
    for_ms: nonNegativeLong,
    severity: maybe(z.enum(ALERT_SEVERITIES)),
    enabled: z.boolean(),
    description: maybe(z.string()),
    changed_by: maybe(z.string()),
  }),
  'invoice.issued': z.looseObject({
    invoice_id: storedId,
    number: nonNegativeLong,
    period_start: timestamp,
    period_end: timestamp,
    status: z.enum(INVOICE_STATUSES),
    plan_id: storedId,
    currency: z.string().length(3),
    /** Line items as JSON: see InvoiceLineSchema in the API contracts. */
    lines: jsonValue,
    subtotal_cents: nonNegativeLong,
    base_fee_cents: nonNegativeLong,
    total_cents: nonNegativeLong,
  }),
  /** A tenant's price plan as the operator set it; the latest by stamp is in force. */
  'billing.plan.changed': z.looseObject({
    plan_id: storedId,
    currency: z.string().length(3),
    base_fee_cents: nonNegativeLong,
    period: z.enum(BILLING_PERIODS),
    /** Per-meter prices as JSON: see MeterPriceSchema in the API contracts. */
    prices: jsonValue,
    changed_by: maybe(z.string()),
  }),
} as const;
