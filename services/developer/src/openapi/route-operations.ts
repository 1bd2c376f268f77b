import { PROVIDERS_GUIDE } from './providers-guide';

/**
 * What the description says of each operation beyond its schemas: a stable
 * operationId (the method name generated clients expose, so it never
 * changes once released), the resource tag it is grouped under, a summary,
 * and whether running it changes credentials or other tenants (the Postman
 * collection keeps those out of its default run).
 */
export interface RouteOperation {
  operationId: string;
  tag: Tag;
  summary: string;
  destructive?: true;
}

export const TAGS = {
  Health: 'Liveness of the process and its database; needs no key.',
  Ingest: 'Signed event delivery from voice providers and agents: the envelope batch and the flat event.',
  Calls: 'Calls as projected from their events: status, agent, latency breakdown, turns, transcript and traces.',
  Outcomes: 'What a call achieved (booked, sold, resolved), recorded by the tenant, with revenue.',
  Incidents: 'Incidents the tenant opens and updates, with their timeline.',
  Alerts: 'Fired alerts, the rules that fire them, the webhook they are sent to and its notifications.',
  Deployments: 'Agent deployments and their measured impact on latency and outcomes.',
  Metrics: 'Metric series over time and the live snapshot of calls in progress.',
  Billing: 'Metered usage and invoices.',
  Audit: 'The tenant audit log: who changed what and when.',
  Keys: 'API keys and the webhook secret: issue, list, rotate with an overlap, revoke.',
  Providers: PROVIDERS_GUIDE,
  Operator: 'Operator routes (the EARSHOT_ADMIN_TOKEN): tenants, plans, the delivery audit log and dead letters.',
} as const;
type Tag = keyof typeof TAGS;

/** Keyed by the route as Fastify registers it: method, a space, the URL with `:param`s. */
export const ROUTE_OPERATIONS: Record<string, RouteOperation> = {
  'GET /health': { operationId: 'getHealth', tag: 'Health', summary: 'Health of the process and its database (no key)' },
  'GET /api/v1/health': { operationId: 'getApiHealth', tag: 'Health', summary: 'Health, under the versioned API prefix (no key)' },

  'POST /api/v1/webhooks/ingest': { operationId: 'ingestEvents', tag: 'Ingest', summary: 'Ingest one signed event envelope, or a JSON array of them' },
  'POST /api/v1/webhooks/events': { operationId: 'ingestWebhookEvent', tag: 'Ingest', summary: 'Ingest one signed flat event' },

  'GET /api/v1/calls': { operationId: 'listCalls', tag: 'Calls', summary: 'List calls, newest first, with filters and cursor pagination' },
  'GET /api/v1/calls/:id': { operationId: 'getCall', tag: 'Calls', summary: 'One call with its turns, transcript and traces' },
  'DELETE /api/v1/calls/:id': {
    operationId: 'eraseCall',
    tag: 'Calls',
    summary: 'Erase a call with a reason (audited): its data key is destroyed and its rows deleted',
    destructive: true,
  },
  'GET /api/v1/agents': { operationId: 'listAgents', tag: 'Calls', summary: 'List the agents the calls and deployments name, with their latest version' },

  'GET /api/v1/outcomes': { operationId: 'listOutcomes', tag: 'Outcomes', summary: 'List recorded outcomes' },
  'POST /api/v1/outcomes': { operationId: 'createOutcome', tag: 'Outcomes', summary: 'Record the outcome of a call' },

  'GET /api/v1/incidents': { operationId: 'listIncidents', tag: 'Incidents', summary: 'List incidents' },
  'POST /api/v1/incidents': { operationId: 'createIncident', tag: 'Incidents', summary: 'Open an incident' },
  'PATCH /api/v1/incidents/:id': { operationId: 'updateIncident', tag: 'Incidents', summary: 'Change an incident’s status or severity, or add a note' },

  'GET /api/v1/alerts': { operationId: 'listAlerts', tag: 'Alerts', summary: 'List fired and resolved alerts' },
  'GET /api/v1/alerts/rules': { operationId: 'listAlertRules', tag: 'Alerts', summary: 'List alert rules' },
  'POST /api/v1/alerts/rules': { operationId: 'createAlertRule', tag: 'Alerts', summary: 'Create an alert rule' },
  'GET /api/v1/alerts/rules/:id': { operationId: 'getAlertRule', tag: 'Alerts', summary: 'One alert rule' },
  'PATCH /api/v1/alerts/rules/:id': { operationId: 'updateAlertRule', tag: 'Alerts', summary: 'Change an alert rule' },
  'DELETE /api/v1/alerts/rules/:id': { operationId: 'deleteAlertRule', tag: 'Alerts', summary: 'Delete an alert rule' },
  'GET /api/v1/alerts/webhook': { operationId: 'getAlertWebhook', tag: 'Alerts', summary: 'The webhook alerts are sent to' },
  'PUT /api/v1/alerts/webhook': { operationId: 'setAlertWebhook', tag: 'Alerts', summary: 'Set the webhook alerts are sent to', destructive: true },
  'DELETE /api/v1/alerts/webhook': { operationId: 'deleteAlertWebhook', tag: 'Alerts', summary: 'Remove the webhook alerts are sent to', destructive: true },
  'GET /api/v1/alerts/notifications': { operationId: 'listAlertNotifications', tag: 'Alerts', summary: 'Alert notifications sent to the webhook' },

  'GET /api/v1/deployments': { operationId: 'listDeployments', tag: 'Deployments', summary: 'List deployments' },
  'POST /api/v1/deployments': { operationId: 'createDeployment', tag: 'Deployments', summary: 'Record a deployment' },
  'GET /api/v1/deployments/:id': { operationId: 'getDeployment', tag: 'Deployments', summary: 'One deployment' },
  'GET /api/v1/deployments/:id/impact': { operationId: 'getDeploymentImpact', tag: 'Deployments', summary: 'A deployment’s impact: metrics before and after' },

  'GET /api/v1/metrics': { operationId: 'getMetric', tag: 'Metrics', summary: 'One metric as a time series' },
  'GET /api/v1/metrics/catalogue': { operationId: 'getMetricCatalogue', tag: 'Metrics', summary: 'Every metric name, with what it measures and its unit' },
  'GET /api/v1/realtime': { operationId: 'getRealtime', tag: 'Metrics', summary: 'Live snapshot: calls in progress, success rate, latency' },

  'GET /api/v1/usage': { operationId: 'listUsage', tag: 'Billing', summary: 'Metered usage by period' },
  'GET /api/v1/billing/invoices': { operationId: 'listInvoices', tag: 'Billing', summary: 'List invoices' },

  'GET /api/v1/audit': { operationId: 'listAuditEntries', tag: 'Audit', summary: 'The tenant audit log' },

  'POST /api/v1/keys': { operationId: 'createApiKey', tag: 'Keys', summary: 'Issue an API key (its secret is shown once)' },
  'GET /api/v1/keys': { operationId: 'listApiKeys', tag: 'Keys', summary: 'List API keys' },
  'GET /api/v1/keys/:id': { operationId: 'getApiKey', tag: 'Keys', summary: 'One API key' },
  'POST /api/v1/keys/:id/rotate': { operationId: 'rotateApiKey', tag: 'Keys', summary: 'Rotate an API key; the old one works until the overlap ends' },
  'POST /api/v1/keys/:id/revoke': { operationId: 'revokeApiKey', tag: 'Keys', summary: 'Revoke an API key', destructive: true },
  'GET /api/v1/tenant': { operationId: 'getOwnTenant', tag: 'Keys', summary: 'The tenant of the calling key' },
  'GET /api/v1/webhook-secret': {
    operationId: 'getWebhookSecretStatus',
    tag: 'Keys',
    summary: 'When the latest webhook secret rotation’s overlap ends (never the secret)',
  },
  'POST /api/v1/webhook-secret/rotate': {
    operationId: 'rotateWebhookSecret',
    tag: 'Keys',
    summary: 'Rotate the webhook secret; both verify until the overlap ends',
    destructive: true,
  },

  'POST /api/v1/providers': { operationId: 'createProviderConnection', tag: 'Providers', summary: 'Connect a voice provider: the webhook URL to paste there' },
  'GET /api/v1/providers': { operationId: 'listProviderConnections', tag: 'Providers', summary: 'List provider connections' },
  'GET /api/v1/providers/:id': { operationId: 'getProviderConnection', tag: 'Providers', summary: 'One provider connection' },
  'POST /api/v1/providers/:id/rotate': {
    operationId: 'rotateProviderCredentials',
    tag: 'Providers',
    summary: 'Rotate a connection’s credentials; both verify until the overlap ends',
    destructive: true,
  },
  'POST /api/v1/providers/:id/disable': {
    operationId: 'disableProviderConnection',
    tag: 'Providers',
    summary: 'Stop taking a provider’s deliveries',
    destructive: true,
  },
  'POST /api/v1/providers/:id/enable': {
    operationId: 'enableProviderConnection',
    tag: 'Providers',
    summary: 'Take a provider’s deliveries again',
    destructive: true,
  },
  'DELETE /api/v1/providers/:id': { operationId: 'deleteProviderConnection', tag: 'Providers', summary: 'Delete a provider connection', destructive: true },
  'POST /api/v1/webhooks/providers/:provider/:connectionId': {
    operationId: 'receiveProviderWebhook',
    tag: 'Providers',
    summary: 'A provider’s own webhook, verified its way (no API key: the URL names the connection)',
    destructive: true,
  },

  'POST /api/v1/admin/tenants': { operationId: 'createTenant', tag: 'Operator', summary: 'Create a tenant with its first API key and webhook secret' },
  'GET /api/v1/admin/tenants': { operationId: 'listTenants', tag: 'Operator', summary: 'List tenants' },
  'GET /api/v1/admin/tenants/:id': { operationId: 'getTenant', tag: 'Operator', summary: 'One tenant' },
  'DELETE /api/v1/admin/tenants/:id': { operationId: 'deleteTenant', tag: 'Operator', summary: 'Delete a tenant and its data', destructive: true },
  'POST /api/v1/admin/tenants/:id/suspend': { operationId: 'suspendTenant', tag: 'Operator', summary: 'Suspend a tenant', destructive: true },
  'POST /api/v1/admin/tenants/:id/resume': { operationId: 'resumeTenant', tag: 'Operator', summary: 'Resume a suspended tenant' },
  'PUT /api/v1/admin/tenants/:id/plan': { operationId: 'setTenantPlan', tag: 'Operator', summary: 'Set a tenant’s price plan' },
  'GET /api/v1/admin/tenants/:id/data-settings': {
    operationId: 'getTenantDataSettings',
    tag: 'Operator',
    summary: 'A tenant’s data settings (abandon-after silence, retention) and what applies',
  },
  'PUT /api/v1/admin/tenants/:id/data-settings': {
    operationId: 'setTenantDataSettings',
    tag: 'Operator',
    summary: 'Set a tenant’s abandon-after silence and retention',
    destructive: true,
  },
  'GET /api/v1/admin/plans/:planId/retention': { operationId: 'getPlanRetention', tag: 'Operator', summary: 'What tenants on a price plan keep' },
  'PUT /api/v1/admin/plans/:planId/retention': {
    operationId: 'setPlanRetention',
    tag: 'Operator',
    summary: 'Set what tenants on a price plan keep',
    destructive: true,
  },
  'GET /api/v1/admin/deliveries': { operationId: 'listDeliveries', tag: 'Operator', summary: 'The delivery audit log' },
  'GET /api/v1/admin/dead-letters': { operationId: 'listDeadLetters', tag: 'Operator', summary: 'The dead-letter store' },
  'GET /api/v1/admin/dead-letters/:id': { operationId: 'getDeadLetter', tag: 'Operator', summary: 'One dead letter' },
  'POST /api/v1/admin/dead-letters/:id/replay': { operationId: 'replayDeadLetter', tag: 'Operator', summary: 'Replay a dead letter through the intake' },
};
