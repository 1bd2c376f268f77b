package provider

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// refusal is one value the plan refuses, and the request that shows the API refuses it too.
type refusal struct {
	name   string
	config string
	plan   string
	api    func(*client.Client) error
}

func ptrTo(value string) *string { return &value }

// block is a resource block of the given attributes, one a line.
func block(kind string, attributes ...string) string {
	return "resource \"" + kind + "\" \"refused\" {\n  " + strings.Join(attributes, "\n  ") + "\n}\n"
}

var rule = client.AlertRuleInput{Metric: "latency.total_ms.p95", Comparison: "gt", Threshold: 1, WindowMs: 300000, Severity: "warning", Enabled: true}

var refusals = []refusal{
	{
		name:   "a metric the catalogue lacks",
		config: block("earshot_alert_rule", `metric = "latency.nope"`, `comparison = "gt"`, `threshold = 1`),
		plan:   `metric must be one of`,
		api: func(c *client.Client) error {
			in := rule
			in.Metric = "latency.nope"
			_, err := c.CreateAlertRule(background, in)
			return err
		},
	},
	{
		name:   "a window under a minute",
		config: block("earshot_alert_rule", `metric = "calls.failed"`, `comparison = "gt"`, `threshold = 1`, `window_ms = 1000`),
		plan:   `window_ms must be at least 60000`,
		api: func(c *client.Client) error {
			in := rule
			in.WindowMs = 1000
			_, err := c.CreateAlertRule(background, in)
			return err
		},
	},
	{
		name:   "an unknown severity",
		config: block("earshot_alert_rule", `metric = "calls.failed"`, `comparison = "gt"`, `threshold = 1`, `severity = "fatal"`),
		plan:   `severity must be one of critical, warning, info`,
		api: func(c *client.Client) error {
			in := rule
			in.Severity = "fatal"
			_, err := c.CreateAlertRule(background, in)
			return err
		},
	},
	{
		name:   "a rule id with a space",
		config: block("earshot_alert_rule", `id = "p95 latency"`, `metric = "calls.failed"`, `comparison = "gt"`, `threshold = 1`),
		plan:   `id must be letters, digits and`,
		api: func(c *client.Client) error {
			in := rule
			in.ID = ptrTo("p95 latency")
			_, err := c.CreateAlertRule(background, in)
			return err
		},
	},
	{
		name:   "a scope that does not exist",
		config: block("earshot_api_key", `name = "ci"`, `scopes = ["calls:read", "nope:read"]`),
		plan:   `must be one of events:write`,
		api: func(c *client.Client) error {
			_, err := c.CreateAPIKey(background, client.APIKeyInput{Name: "ci", Scopes: []string{"nope:read"}, Environment: "production", Workspace: "default", IPAllowlist: "any"})
			return err
		},
	},
	{
		name:   "a key without scopes",
		config: block("earshot_api_key", `name = "ci"`, `scopes = []`),
		plan:   `scopes must hold at least 1 items`,
		api: func(c *client.Client) error {
			_, err := c.CreateAPIKey(background, client.APIKeyInput{Name: "ci", Scopes: []string{}, Environment: "production", Workspace: "default", IPAllowlist: "any"})
			return err
		},
	},
	{
		name:   "an allowlist entry that is no network",
		config: block("earshot_api_key", `name = "ci"`, `scopes = ["calls:read"]`, `ip_allowlist = ["10.0.0.0/33"]`),
		plan:   `must be an IPv4 address`,
		api: func(c *client.Client) error {
			_, err := c.CreateAPIKey(background, client.APIKeyInput{Name: "ci", Scopes: []string{"calls:read"}, Environment: "production", Workspace: "default", IPAllowlist: []string{"10.0.0.0/33"}})
			return err
		},
	},
	{
		name:   "an expiry in the past",
		config: block("earshot_api_key", `name = "ci"`, `scopes = ["calls:read"]`, `expires_at = "2020-01-01T00:00:00Z"`),
		plan:   `expires_at must be in the future`,
		api: func(c *client.Client) error {
			_, err := c.CreateAPIKey(background, client.APIKeyInput{Name: "ci", Scopes: []string{"calls:read"}, Environment: "production", Workspace: "default", IPAllowlist: "any", ExpiresAt: ptrTo("2020-01-01T00:00:00Z")})
			return err
		},
	},
	{
		name:   "a workspace with a space",
		config: block("earshot_api_key", `name = "ci"`, `scopes = ["calls:read"]`, `workspace = "voice lab"`),
		plan:   `workspace must be letters, digits and . _ -`,
		api: func(c *client.Client) error {
			_, err := c.CreateAPIKey(background, client.APIKeyInput{Name: "ci", Scopes: []string{"calls:read"}, Environment: "production", Workspace: "voice lab", IPAllowlist: "any"})
			return err
		},
	},
	{
		name:   "a key name of 101 characters",
		config: block("earshot_api_key", `name = "`+strings.Repeat("n", 101)+`"`, `scopes = ["calls:read"]`),
		plan:   `name must be at most 100 characters`,
		api: func(c *client.Client) error {
			_, err := c.CreateAPIKey(background, client.APIKeyInput{Name: strings.Repeat("n", 101), Scopes: []string{"calls:read"}, Environment: "production", Workspace: "default", IPAllowlist: "any"})
			return err
		},
	},
	{
		name:   "a webhook that is not http",
		config: block("earshot_alert_webhook", `url = "ftp://hooks.example.com/earshot"`),
		plan:   `url must be a URL whose scheme matches`,
		api: func(c *client.Client) error {
			_, err := c.PutAlertWebhook(background, "ftp://hooks.example.com/earshot", true)
			return err
		},
	},
	{
		name:   "a deployment of an agent named by spaces",
		config: block("earshot_deployment", `agent = "   "`, `version = "v1"`),
		plan:   `agent must not be only spaces`,
		api: func(c *client.Client) error {
			_, err := c.RecordDeployment(background, client.DeploymentInput{Agent: "   ", Version: "v1"})
			return err
		},
	},
	{
		name:   "a rotation overlap beyond 30 days",
		config: block("earshot_webhook_secret_rotation", `overlap_seconds = 2592001`),
		plan:   `overlap_seconds must be at most 2.592e\+06`,
		api:    func(c *client.Client) error { _, err := c.RotateWebhookSecret(background, 2592001); return err },
	},
}

// TestAccValidationMirrorsAPI: each value the plan refuses, the API refuses too (400),
// so a plan fails exactly where the apply would have.
func TestAccValidationMirrorsAPI(t *testing.T) {
	for _, refused := range refusals {
		t.Run(refused.name, func(t *testing.T) {
			resource.Test(t, acceptance(t, resource.TestStep{
				PreConfig: func() {
					var apiError *client.Error
					if err := refused.api(api(t)); !errors.As(err, &apiError) || apiError.Status != 400 || apiError.Code != "VALIDATION_ERROR" {
						t.Fatalf("the API did not refuse it with 400 VALIDATION_ERROR: %v", err)
					}
				},
				Config:      header + refused.config,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(refused.plan),
			}))
		})
	}
}
