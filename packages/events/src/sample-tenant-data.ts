import type { EventData, TenantEventType } from '@earshot/contracts';

/** `at` is milliseconds after the sample call's start. */
type Samples = { readonly [T in TenantEventType]: { readonly at: number; readonly data: EventData<T> } };

/** The tenant's own writes around the sample call: a deployment, an alert, an incident and the call's outcome. */
export const TENANT_SAMPLES: Samples = {
  'deployment.recorded': {
    at: -86_400_000,
    data: {
      deployment_id: 'dep_2026_01_07_a',
      agent: 'agent_support',
      version: 'v42',
      deployed_at: '2026-01-07T09:30:00.000Z',
      previous_version: 'v41',
      environment: 'production',
      description: 'Shorter greeting; invoice lookup tool moved to the billing API v2.',
      deployed_by: 'ana@acme.example',
    },
  },
  'alert.fired': {
    at: 60_000,
    data: {
      alert_id: 'alr_5d1e',
      rule_id: 'rule_p95_latency',
      rule_name: 'p95 voice-to-voice latency over 1.2 s',
      metric: 'latency.total_ms.p95',
      comparison: 'gt',
      threshold: 1_200,
      value: 1_480,
      window_ms: 300_000,
      severity: 'warning',
      agent_id: 'agent_support',
      message: 'p95 latency 1480 ms over the last 5 minutes (threshold 1200 ms)',
    },
  },
  'incident.created': {
    at: 120_000,
    data: {
      incident_id: 'inc_0112',
      title: 'Slow replies on the support agent',
      severity: 'high',
      status: 'investigating',
      description: 'Voice-to-voice latency doubled after the v42 deployment.',
      affected_agents: ['agent_support'],
      affected_calls: ['3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21'],
      started_at: '2026-01-08T09:25:00.000Z',
      opened_by: 'ana@acme.example',
    },
  },
  'incident.updated': {
    at: 900_000,
    data: {
      incident_id: 'inc_0112',
      title: null,
      severity: 'medium',
      status: 'resolved',
      description: null,
      note: 'Rolled back to v41; latency back under 900 ms.',
      affected_agents: null,
      affected_calls: null,
      resolved_at: '2026-01-08T09:44:00.000Z',
      updated_by: 'ana@acme.example',
    },
  },
  'alert.resolved': {
    at: 960_000,
    data: {
      alert_id: 'alr_5d1e',
      rule_id: 'rule_p95_latency',
      metric: 'latency.total_ms.p95',
      value: 870,
      fired_at: '2026-01-08T09:31:00.000Z',
      resolution: 'auto',
      resolved_by: null,
    },
  },
  'outcome.recorded': {
    at: 3_600_000,
    data: {
      outcome_id: 'out_7c2e',
      call_id: '3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21',
      agent: 'agent_support',
      outcome_type: 'escalated',
      value: 'billing_dispute_opened',
      source: 'crm',
      revenue_usd: 0,
    },
  },
  'alert.rule.changed': {
    at: -3_600_000,
    data: {
      rule_id: 'rule_p95_latency',
      action: 'created',
      name: 'p95 voice-to-voice latency over 1.2 s',
      metric: 'latency.total_ms.p95',
      agent_id: 'agent_support',
      comparison: 'gt',
      threshold: 1_200,
      window_ms: 300_000,
      for_ms: 0,
      severity: 'warning',
      enabled: true,
      description: 'Callers hang up when replies take longer than a second.',
      changed_by: 'ana@acme.example',
    },
  },
  'invoice.issued': {
    at: 7_200_000,
    data: {
      invoice_id: 'inv_2025_12',
      number: 1,
      period_start: '2025-12-01T00:00:00.000Z',
      period_end: '2026-01-01T00:00:00.000Z',
      status: 'issued',
      plan_id: 'starter',
      currency: 'USD',
      lines: [{ meter: 'call_minutes', description: 'Call minutes', quantity: 1_250, included: 1_000, billable: 250, unit_size: 1, unit_price_cents: 2, amount_cents: 500 }],
      subtotal_cents: 500,
      base_fee_cents: 0,
      total_cents: 500,
    },
  },
};
