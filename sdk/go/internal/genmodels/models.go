package main

// model names a schema of the served API description: the part of one
// operation's request or answer that becomes a Go type. The names are the
// SDK surface (sdk/README.md), so they are fixed here rather than derived
// from operation ids that may change.
type model struct {
	name string
	// op is "METHOD path" as the description lists it.
	op string
	// from is "response" (the 2xx answer), "body" (the request body) or
	// "query" (the query parameters, as an object, cursor and page left out).
	from string
	// at is a JSON pointer into that schema ("" for the whole of it).
	at string
}

var models = []model{
	{"Health", "GET /api/v1/health", "response", ""},
	{"LiveSnapshot", "GET /api/v1/realtime", "response", "/properties/live"},
	{"Call", "GET /api/v1/calls", "response", "/properties/items/items"},
	{"CallListParams", "GET /api/v1/calls", "query", ""},
	{"CallDetail", "GET /api/v1/calls/{id}", "response", "/properties/call"},
	{"Outcome", "GET /api/v1/outcomes", "response", "/properties/items/items"},
	{"OutcomeListParams", "GET /api/v1/outcomes", "query", ""},
	{"OutcomeCreateParams", "POST /api/v1/outcomes", "body", ""},
	{"WriteResult", "POST /api/v1/outcomes", "response", ""},
	{"Incident", "GET /api/v1/incidents", "response", "/properties/items/items"},
	{"IncidentListParams", "GET /api/v1/incidents", "query", ""},
	{"IncidentCreateParams", "POST /api/v1/incidents", "body", ""},
	{"IncidentUpdateParams", "PATCH /api/v1/incidents/{id}", "body", ""},
	{"Alert", "GET /api/v1/alerts", "response", "/properties/items/items"},
	{"AlertListParams", "GET /api/v1/alerts", "query", ""},
	{"AlertNotification", "GET /api/v1/alerts/notifications", "response", "/properties/items/items"},
	{"AlertNotificationListParams", "GET /api/v1/alerts/notifications", "query", ""},
	{"AlertWebhook", "GET /api/v1/alerts/webhook", "response", ""},
	{"AlertWebhookParams", "PUT /api/v1/alerts/webhook", "body", ""},
	{"AlertRule", "GET /api/v1/alerts/rules/{id}", "response", "/properties/rule"},
	{"AlertRuleListParams", "GET /api/v1/alerts/rules", "query", ""},
	{"AlertRuleCreateParams", "POST /api/v1/alerts/rules", "body", ""},
	{"AlertRuleUpdateParams", "PATCH /api/v1/alerts/rules/{id}", "body", ""},
	{"Deployment", "GET /api/v1/deployments", "response", "/properties/items/items"},
	{"DeploymentListParams", "GET /api/v1/deployments", "query", ""},
	{"DeploymentCreateParams", "POST /api/v1/deployments", "body", ""},
	{"DeploymentImpact", "GET /api/v1/deployments/{id}/impact", "response", ""},
	{"DeploymentImpactParams", "GET /api/v1/deployments/{id}/impact", "query", ""},
	{"MetricSeries", "GET /api/v1/metrics", "response", ""},
	{"MetricSeriesParams", "GET /api/v1/metrics", "query", ""},
	{"Usage", "GET /api/v1/usage", "response", ""},
	{"UsageParams", "GET /api/v1/usage", "query", ""},
	{"Invoice", "GET /api/v1/billing/invoices", "response", "/properties/items/items"},
	{"InvoiceListParams", "GET /api/v1/billing/invoices", "query", ""},
	{"AuditEntry", "GET /api/v1/audit", "response", "/properties/items/items"},
	{"AuditListParams", "GET /api/v1/audit", "query", ""},
	{"APIKey", "GET /api/v1/keys/{id}", "response", "/properties/key"},
	{"KeyListParams", "GET /api/v1/keys", "query", ""},
	{"KeyCreateParams", "POST /api/v1/keys", "body", ""},
	{"KeyWithSecret", "POST /api/v1/keys", "response", ""},
	{"KeyRotateParams", "POST /api/v1/keys/{id}/rotate", "body", ""},
	{"WebhookSecretRotateParams", "POST /api/v1/webhook-secret/rotate", "body", ""},
	{"WebhookSecretRotation", "POST /api/v1/webhook-secret/rotate", "response", ""},
	{"EventCall", "POST /api/v1/webhooks/ingest", "body", "/anyOf/0/oneOf/0/properties/call"},
	{"IngestAccepted", "POST /api/v1/webhooks/ingest", "response", "/anyOf/1/properties/results/items/anyOf/0"},
	{"IngestRejected", "POST /api/v1/webhooks/ingest", "response", "/anyOf/1/properties/results/items/anyOf/1"},
}
