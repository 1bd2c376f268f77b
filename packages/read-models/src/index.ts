export { READ_MODEL_TABLE_MIGRATIONS } from './migrations';
export { projectDelivery, projectEvent, type ProjectedDelivery, type ProjectedEvent } from './projected-event';
export {
  precedenceOf,
  type Cell,
  type CounterMerge,
  type CounterProjection,
  type DocumentProjection,
  type Projection,
  type RegisterProjection,
  type Row,
} from './projection';
export { READ_MODELS } from './read-models';
export { counterMergeSet } from './counter-merge';
export { deliveryUsage, usageMeters } from './usage-meters/usage-meters.projection';
export { agentRows, type AgentRow } from './across/agents.queries';
export { LIVE_WINDOW_MS, liveRow, liveStatement, type LiveRow } from './across/live.queries';
export { readSeries, seriesStatement, type SeriesRequest } from './across/metric-series.queries';
export { alertRuleRow, alertRuleRows, enabledAlertRuleRows, type AlertRuleRow } from './alert-rules/alert-rules.queries';
export { alertRows, type AlertRow } from './alerts/alerts.queries';
export { planIdInForce, readPlan } from './billing-plans/billing-plans.queries';
export {
  callDetailStatement,
  callPageStatement,
  callResults,
  callSortOf,
  deleteCallRows,
  deleteCallsStartedBefore,
  renderedCallDetail,
  renderedCalls,
  silentCalls,
  type SilentCall,
} from './calls/calls.queries';
export { deploymentRow, deploymentRows, type DeploymentRow } from './deployments/deployments.queries';
export { incidentRows, incidentStatus, type IncidentRow } from './incidents/incidents.queries';
export { invoiceRows, lastInvoice, type InvoiceRow } from './invoices/invoices.queries';
export { foldAll, foldTenant } from './metric-rollups/metric-folds.store';
export { agentSketch } from './metric-rollups/metric-rollups.queries';
export { outcomeCountsAround, outcomeRows, type OutcomeRow } from './outcomes/outcomes.queries';
export { firstMeteredDay, readQuantities, usageRows, type UsageRow } from './usage-meters/usage-meters.queries';
