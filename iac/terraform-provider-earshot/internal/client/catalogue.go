package client

import (
	"context"
	"net/http"
	"net/url"
)

// Tenant is the caller's own tenant.
type Tenant struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Status      string  `json:"status"`
	CreatedAt   string  `json:"createdAt"`
	SuspendedAt *string `json:"suspendedAt"`
	ActiveKeys  int64   `json:"activeKeys"`
}

func (c *Client) GetTenant(ctx context.Context) (Tenant, error) {
	var out struct {
		Tenant Tenant `json:"tenant"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "/tenant", idempotent: true}, &out)
	return out.Tenant, err
}

// Metric is one name of the metric catalogue.
type Metric struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Unit        string `json:"unit"`
}

func (c *Client) MetricCatalogue(ctx context.Context) ([]Metric, error) {
	var out struct {
		Items []Metric `json:"items"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "/metrics/catalogue", idempotent: true}, &out)
	return out.Items, err
}

// Agent is an agent the tenant's calls or deployments name.
type Agent struct {
	ID         string  `json:"id"`
	Calls      int64   `json:"calls"`
	LastCallAt *string `json:"lastCallAt"`
	Version    *string `json:"version"`
	DeployedAt *string `json:"deployedAt"`
}

// Agents answers every agent, following the list's cursor to its end.
func (c *Client) Agents(ctx context.Context) ([]Agent, error) {
	var agents []Agent
	cursor := ""
	for {
		query := url.Values{"limit": {"200"}}
		if cursor != "" {
			query.Set("cursor", cursor)
		}
		var page struct {
			Items      []Agent `json:"items"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := c.do(ctx, request{method: http.MethodGet, path: "/agents?" + query.Encode(), idempotent: true}, &page); err != nil {
			return nil, err
		}
		agents = append(agents, page.Items...)
		if page.NextCursor == nil {
			return agents, nil
		}
		cursor = *page.NextCursor
	}
}
