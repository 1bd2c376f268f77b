// Package earshot is the official Go client of the Earshot API:
// observability for voice AI agents.
//
//	client, err := earshot.NewClient("", earshot.WithBaseURL("http://127.0.0.1:8080"))
//	for call, err := range client.Calls.List(ctx, &earshot.CallListParams{AgentID: earshot.String("support")}) { … }
//
// Every REST operation of the API is a method of one of the Client's
// resources; lists are iterators that follow the cursor; writes are retried
// with one Idempotency-Key; every non-2xx answer is an *Error.
package earshot

import (
	"errors"
	"net/http"
	"os"
	"strings"
	"time"
)

// Version is this SDK's version; it follows the API's (1.0.0).
const Version = "1.0.0"

// DefaultBaseURL is where the client goes without WithBaseURL or EARSHOT_BASE_URL.
const DefaultBaseURL = "http://127.0.0.1:8080/api/v1"

// Client is one Earshot API client. It is safe for concurrent use.
type Client struct {
	Calls         *CallService
	Outcomes      *OutcomeService
	Incidents     *IncidentService
	Alerts        *AlertService
	AlertRules    *AlertRuleService
	Deployments   *DeploymentService
	Metrics       *MetricService
	Realtime      *RealtimeService
	Usage         *UsageService
	Invoices      *InvoiceService
	Audit         *AuditService
	Keys          *KeyService
	WebhookSecret *WebhookSecretService
	Providers     *ProviderService
	Health        *HealthService
	Tenant        *TenantService
	Ingest        *IngestService
	Stream        *StreamService
	Webhooks      *WebhookService

	apiKey        string
	baseURL       string
	webhookSecret string
	timeout       time.Duration
	maxRetries    int
	http          *http.Client
}

// Option configures a Client in NewClient.
type Option func(*Client)

// WithBaseURL sets the API's base URL, ending in /api/v1; the service root alone means the same.
func WithBaseURL(u string) Option { return func(c *Client) { c.baseURL = u } }

// WithWebhookSecret sets the tenant's webhook secret (whsec_…), which signs ingest requests and verifies alert notifications.
func WithWebhookSecret(secret string) Option { return func(c *Client) { c.webhookSecret = secret } }

// WithTimeout bounds each attempt of a request (default 60 s).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithMaxRetries bounds the retries after a request's first attempt (default 2).
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetries = n } }

// WithHTTPClient sets the *http.Client the requests go through.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// NewClient makes a client. An empty apiKey means EARSHOT_API_KEY; the base
// URL and webhook secret default to EARSHOT_BASE_URL and EARSHOT_WEBHOOK_SECRET.
func NewClient(apiKey string, options ...Option) (*Client, error) {
	c := &Client{
		apiKey:        firstOf(apiKey, os.Getenv("EARSHOT_API_KEY")),
		baseURL:       firstOf(os.Getenv("EARSHOT_BASE_URL"), DefaultBaseURL),
		webhookSecret: os.Getenv("EARSHOT_WEBHOOK_SECRET"),
		timeout:       60 * time.Second,
		maxRetries:    2,
		http:          http.DefaultClient,
	}
	for _, option := range options {
		option(c)
	}
	if c.apiKey == "" {
		return nil, errors.New("earshot: no API key: pass one to NewClient or set EARSHOT_API_KEY")
	}
	c.baseURL = apiBase(c.baseURL)
	c.Calls = &CallService{c}
	c.Outcomes = &OutcomeService{c}
	c.Incidents = &IncidentService{c}
	c.Alerts = &AlertService{c, &AlertWebhookService{c}}
	c.AlertRules = &AlertRuleService{c}
	c.Deployments = &DeploymentService{c}
	c.Metrics = &MetricService{c}
	c.Realtime = &RealtimeService{c}
	c.Usage = &UsageService{c}
	c.Invoices = &InvoiceService{c}
	c.Audit = &AuditService{c}
	c.Keys = &KeyService{c}
	c.WebhookSecret = &WebhookSecretService{c}
	c.Providers = &ProviderService{c}
	c.Health = &HealthService{c}
	c.Tenant = &TenantService{c}
	c.Ingest = &IngestService{c}
	c.Stream = &StreamService{c}
	c.Webhooks = &WebhookService{c}
	return c, nil
}

// BaseURL is the API's base URL the client uses, ending in /api/v1.
func (c *Client) BaseURL() string { return c.baseURL }

// apiBase accepts the service root as well as {root}/api/v1.
func apiBase(u string) string {
	u = strings.TrimRight(u, "/")
	if strings.HasSuffix(u, "/api/v1") {
		return u
	}
	return u + "/api/v1"
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// String returns a pointer to s, for the optional fields of params.
func String(s string) *string { return &s }

// Int returns a pointer to n, for the optional fields of params.
func Int(n int) *int { return &n }

// Float returns a pointer to f, for the optional fields of params.
func Float(f float64) *float64 { return &f }

// Bool returns a pointer to b, for the optional fields of params.
func Bool(b bool) *bool { return &b }

// Ptr returns a pointer to v, for optional fields of any type (enums among them).
func Ptr[T any](v T) *T { return &v }
