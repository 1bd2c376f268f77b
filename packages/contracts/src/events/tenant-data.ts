import { z } from 'zod';
import { measuredValue, senderText, storedId, storedText, usdAmount } from '../text';
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
    agent: maybe(senderText),
    outcome_type: storedId,
    value: maybe(senderText),
    source: maybe(senderText),
    revenue_usd: maybe(usdAmount),
  }),
  'incident.created': z.looseObject({
    incident_id: storedId,
    title: storedId,
    severity: z.enum(INCIDENT_SEVERITIES),
    status: z.enum(INCIDENT_STATUSES),
    description: maybe(senderText),
    affected_agents: z.array(senderText).default([]),
    affected_calls: z.array(senderText).default([]),
    started_at: maybe(timestamp),
    opened_by: maybe(senderText),
  }),
  /** A partial change: null fields are unchanged. */
  'incident.updated': z.looseObject({
    incident_id: storedId,
    title: maybe(senderText),
    severity: maybe(z.enum(INCIDENT_SEVERITIES)),
    status: maybe(z.enum(INCIDENT_STATUSES)),
    description: maybe(senderText),
    note: maybe(senderText),
    affected_agents: maybe(z.array(senderText)),
    affected_calls: maybe(z.array(senderText)),
    resolved_at: maybe(timestamp),
    updated_by: maybe(senderText),
  }),
  'deployment.recorded': z.looseObject({
    deployment_id: storedId,
    agent: storedId,
    version: storedId,
    deployed_at: timestamp,
    previous_version: maybe(senderText),
    environment: maybe(senderText),
    description: maybe(senderText),
    deployed_by: maybe(senderText),
  }),
  'alert.fired': z.looseObject({
    alert_id: storedId,
    rule_id: storedId,
    rule_name: maybe(senderText),
    metric: storedId,
    comparison: z.enum(ALERT_COMPARISONS),
    threshold: measuredValue,
    // Measured by the evaluator, not written by a client: finite (zod's number) is its only bound.
    value: z.number(),
    window_ms: nonNegativeLong,
    severity: maybe(z.enum(ALERT_SEVERITIES)),
    agent_id: maybe(senderText),
    message: maybe(senderText),
  }),
  'alert.resolved': z.looseObject({
    alert_id: storedId,
    rule_id: storedId,
    metric: maybe(senderText),
    value: maybe(z.number()),
    fired_at: maybe(timestamp),
    resolution: maybe(senderText),
    resolved_by: maybe(senderText),
  }),
  /** The whole rule as it stands after the change; a deleted rule keeps its last fields. */
  'alert.rule.changed': z.looseObject({
    rule_id: storedId,
    action: z.enum(ALERT_RULE_ACTIONS),
    name: maybe(senderText),
    metric: storedId,
    agent_id: maybe(senderText),
    comparison: z.enum(ALERT_COMPARISONS),
    threshold: measuredValue,
    window_ms: nonNegativeLong,
    for_ms: nonNegativeLong,
    severity: maybe(z.enum(ALERT_SEVERITIES)),
    enabled: z.boolean(),
    description: maybe(senderText),
    changed_by: maybe(senderText),
  }),
  'invoice.issued': z.looseObject({
    invoice_id: storedId,
    number: nonNegativeLong,
    period_start: timestamp,
    period_end: timestamp,
    status: z.enum(INVOICE_STATUSES),
    plan_id: storedId,
    currency: storedText(3).length(3),
    /** Line items as JSON: see InvoiceLineSchema in the API contracts. */
    lines: jsonValue,
    subtotal_cents: nonNegativeLong,
    base_fee_cents: nonNegativeLong,
    total_cents: nonNegativeLong,
  }),
  /** A tenant's price plan as the operator set it; the latest by stamp is in force. */
  'billing.plan.changed': z.looseObject({
    plan_id: storedId,
    currency: storedText(3).length(3),
    base_fee_cents: nonNegativeLong,
    period: z.enum(BILLING_PERIODS),
    /** Per-meter prices as JSON: see MeterPriceSchema in the API contracts. */
    prices: jsonValue,
    changed_by: maybe(senderText),
  }),
} as const;
