package client

import (
	"context"
	"net/http"
	"net/url"
)

// The records below carry the API's field names (packages/contracts); the
// acceptance tests decode every one of them from a live server.

// APIKey is the record of a key, never the key itself.
type APIKey struct {
	ID                       string   `json:"id"`
	Name                     string   `json:"name"`
	Prefix                   string   `json:"prefix"`
	Scopes                   []string `json:"scopes"`
	Environment              string   `json:"environment"`
	IPAllowlist              []string `json:"ipAllowlist"`
	Status                   string   `json:"status"`
	Workspace                string   `json:"workspace"`
	ExpiresAt                *string  `json:"expiresAt"`
	PreviousSecretValidUntil *string  `json:"previousSecretValidUntil"`
	CreatedAt                string   `json:"createdAt"`
	RevokedAt                *string  `json:"revokedAt"`
}

// APIKeyInput is POST /keys. IPAllowlist nil means any address.
type APIKeyInput struct {
	Name        string   `json:"name"`
	Scopes      []string `json:"scopes"`
	Environment string   `json:"environment"`
	Workspace   string   `json:"workspace"`
	IPAllowlist any      `json:"ipAllowlist"`
	ExpiresAt   *string  `json:"expiresAt,omitempty"`
}

// IssuedAPIKey is a key created or rotated: its record and the key, shown this once.
type IssuedAPIKey struct {
	Key    APIKey `json:"key"`
	Secret string `json:"secret"`
}

type apiKeyAnswer struct {
	Key APIKey `json:"key"`
}

func (c *Client) CreateAPIKey(ctx context.Context, input APIKeyInput) (IssuedAPIKey, error) {
	var out IssuedAPIKey
	err := c.do(ctx, request{method: http.MethodPost, path: "/keys", body: input}, &out)
	return out, err
}

func (c *Client) GetAPIKey(ctx context.Context, id string) (APIKey, error) {
	var out apiKeyAnswer
	err := c.do(ctx, request{method: http.MethodGet, path: "/keys/" + url.PathEscape(id), idempotent: true}, &out)
	return out.Key, err
}

func (c *Client) RotateAPIKey(ctx context.Context, id string, overlapSeconds int64) (IssuedAPIKey, error) {
	var out IssuedAPIKey
	body := map[string]int64{"overlapSeconds": overlapSeconds}
	err := c.do(ctx, request{method: http.MethodPost, path: "/keys/" + url.PathEscape(id) + "/rotate", body: body}, &out)
	return out, err
}

// RevokeAPIKey revokes a key; revoking it again changes nothing, so it may be retried.
func (c *Client) RevokeAPIKey(ctx context.Context, id string) (APIKey, error) {
	var out apiKeyAnswer
	err := c.do(ctx, request{method: http.MethodPost, path: "/keys/" + url.PathEscape(id) + "/revoke", idempotent: true}, &out)
	return out.Key, err
}

// AlertRule is a rule as GET /alerts/rules/{id} answers it.
type AlertRule struct {
	ID          string  `json:"id"`
	Name        *string `json:"name"`
	Metric      string  `json:"metric"`
	AgentID     *string `json:"agentId"`
	Comparison  string  `json:"comparison"`
	Threshold   float64 `json:"threshold"`
	WindowMs    int64   `json:"windowMs"`
	ForMs       int64   `json:"forMs"`
	Severity    *string `json:"severity"`
	Enabled     bool    `json:"enabled"`
	Description *string `json:"description"`
}

// AlertRuleInput is POST /alerts/rules.
type AlertRuleInput struct {
	ID          *string `json:"id,omitempty"`
	Name        *string `json:"name,omitempty"`
	Metric      string  `json:"metric"`
	AgentID     *string `json:"agentId,omitempty"`
	Comparison  string  `json:"comparison"`
	Threshold   float64 `json:"threshold"`
	WindowMs    int64   `json:"windowMs"`
	ForMs       int64   `json:"forMs"`
	Severity    string  `json:"severity"`
	Enabled     bool    `json:"enabled"`
	Description *string `json:"description,omitempty"`
}

type acceptedWrite struct {
	ID string `json:"id"`
}

// CreateAlertRule answers the rule's id (the one given, or the one the API chose).
func (c *Client) CreateAlertRule(ctx context.Context, input AlertRuleInput) (string, error) {
	var out acceptedWrite
	err := c.do(ctx, request{method: http.MethodPost, path: "/alerts/rules", body: input, idempotent: true}, &out)
	return out.ID, err
}

func (c *Client) GetAlertRule(ctx context.Context, id string) (AlertRule, error) {
	var out struct {
		Rule AlertRule `json:"rule"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "/alerts/rules/" + url.PathEscape(id), idempotent: true}, &out)
	return out.Rule, err
}

// PatchAlertRule changes the fields present in patch; a nil value clears a field that may be cleared.
func (c *Client) PatchAlertRule(ctx context.Context, id string, patch map[string]any) error {
	return c.do(ctx, request{method: http.MethodPatch, path: "/alerts/rules/" + url.PathEscape(id), body: patch, idempotent: true}, nil)
}

func (c *Client) DeleteAlertRule(ctx context.Context, id string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "/alerts/rules/" + url.PathEscape(id), idempotent: true}, nil)
}

// AlertWebhook is where the tenant's alert notifications go; URL nil when none is set.
type AlertWebhook struct {
	URL     *string `json:"url"`
	Enabled bool    `json:"enabled"`
}

func (c *Client) PutAlertWebhook(ctx context.Context, target string, enabled bool) (AlertWebhook, error) {
	var out AlertWebhook
	body := map[string]any{"url": target, "enabled": enabled}
	err := c.do(ctx, request{method: http.MethodPut, path: "/alerts/webhook", body: body, idempotent: true}, &out)
	return out, err
}

func (c *Client) GetAlertWebhook(ctx context.Context) (AlertWebhook, error) {
	var out AlertWebhook
	err := c.do(ctx, request{method: http.MethodGet, path: "/alerts/webhook", idempotent: true}, &out)
	return out, err
}

func (c *Client) DeleteAlertWebhook(ctx context.Context) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "/alerts/webhook", idempotent: true}, nil)
}

// Deployment is the record of a release of an agent.
type Deployment struct {
	ID              string  `json:"id"`
	Agent           string  `json:"agent"`
	Version         string  `json:"version"`
	DeployedAt      string  `json:"deployedAt"`
	PreviousVersion *string `json:"previousVersion"`
	Environment     *string `json:"environment"`
	Description     *string `json:"description"`
	DeployedBy      *string `json:"deployedBy"`
}

// DeploymentInput is POST /deployments; writing an id again replaces that record.
type DeploymentInput struct {
	ID              *string `json:"id,omitempty"`
	Agent           string  `json:"agent"`
	Version         string  `json:"version"`
	DeployedAt      *string `json:"deployedAt,omitempty"`
	PreviousVersion *string `json:"previousVersion,omitempty"`
	Environment     *string `json:"environment,omitempty"`
	Description     *string `json:"description,omitempty"`
	DeployedBy      *string `json:"deployedBy,omitempty"`
}

// RecordDeployment answers the deployment's id.
func (c *Client) RecordDeployment(ctx context.Context, input DeploymentInput) (string, error) {
	var out acceptedWrite
	err := c.do(ctx, request{method: http.MethodPost, path: "/deployments", body: input, idempotent: true}, &out)
	return out.ID, err
}

func (c *Client) GetDeployment(ctx context.Context, id string) (Deployment, error) {
	var out struct {
		Deployment Deployment `json:"deployment"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "/deployments/" + url.PathEscape(id), idempotent: true}, &out)
	return out.Deployment, err
}

// RotatedWebhookSecret is the new secret, shown once, and when the previous one stops verifying.
type RotatedWebhookSecret struct {
	WebhookSecret      string `json:"webhookSecret"`
	PreviousValidUntil string `json:"previousValidUntil"`
}

func (c *Client) RotateWebhookSecret(ctx context.Context, overlapSeconds int64) (RotatedWebhookSecret, error) {
	var out RotatedWebhookSecret
	body := map[string]int64{"overlapSeconds": overlapSeconds}
	err := c.do(ctx, request{method: http.MethodPost, path: "/webhook-secret/rotate", body: body}, &out)
	return out, err
}

// WebhookSecretStatus says where the latest rotation left the secret; PreviousValidUntil nil if never rotated.
type WebhookSecretStatus struct {
	PreviousValidUntil *string `json:"previousValidUntil"`
}

func (c *Client) GetWebhookSecretStatus(ctx context.Context) (WebhookSecretStatus, error) {
	var out WebhookSecretStatus
	err := c.do(ctx, request{method: http.MethodGet, path: "/webhook-secret", idempotent: true}, &out)
	return out, err
}
