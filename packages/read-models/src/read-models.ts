import { alertRules } from './alert-rules/alert-rules.projection';
import { alerts } from './alerts/alerts.projection';
import { billingPlans } from './billing-plans/billing-plans.projection';
import { calls } from './calls/calls.projection';
import { deployments } from './deployments/deployments.projection';
import { incidents } from './incidents/incidents.projection';
import { invoices } from './invoices/invoices.projection';
import { metricRollups } from './metric-rollups/metric-rollups.projection';
import type { Projection } from './projection';
import { outcomes } from './outcomes/outcomes.projection';
import { traces } from './traces/traces.projection';
import { transcripts } from './transcripts/transcripts.projection';
import { turns } from './turns/turns.projection';
import { usageMeters } from './usage-meters/usage-meters.projection';

/** Every read model, in the order the store writes them (and so locks their rows). */
export const READ_MODELS: readonly Projection[] = [
  calls,
  turns,
  transcripts,
  traces,
  outcomes,
  incidents,
  deployments,
  alerts,
  alertRules,
  invoices,
  billingPlans,
  metricRollups,
  usageMeters,
];
