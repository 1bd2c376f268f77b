package earshot

import "context"

// MetricService reads metric time series: GET /metrics.
type MetricService struct{ client *Client }

// Catalogue lists the metric names a series can be asked for, as the API
// description lists them (the API has no catalogue route of its own).
func (s *MetricService) Catalogue(context.Context) ([]MetricName, error) {
	return append([]MetricName(nil), metricCatalogue...), nil
}

// Series fetches one metric's series over a range, at an interval, for all agents or one.
func (s *MetricService) Series(ctx context.Context, params MetricSeriesParams, options ...RequestOption) (*MetricSeries, error) {
	return answer[MetricSeries](ctx, s.client, "GET", "/metrics", params, nil, options)
}

// RealtimeService reads the live snapshot: GET /realtime.
type RealtimeService struct{ client *Client }

// Retrieve answers the calls in progress, the recent success rate and p95 latency.
func (s *RealtimeService) Retrieve(ctx context.Context, options ...RequestOption) (*LiveSnapshot, error) {
	return member[LiveSnapshot](ctx, s.client, "GET", "/realtime", "live", nil, options)
}

// UsageService reads usage meters: GET /usage.
type UsageService struct{ client *Client }

// Retrieve answers the usage per day and the current billing period's meters.
func (s *UsageService) Retrieve(ctx context.Context, params *UsageParams, options ...RequestOption) (*Usage, error) {
	return answer[Usage](ctx, s.client, "GET", "/usage", params, nil, options)
}

// HealthService reads the service's health: GET /health.
type HealthService struct{ client *Client }

// Retrieve answers whether the service and its database are up.
func (s *HealthService) Retrieve(ctx context.Context, options ...RequestOption) (*Health, error) {
	return answer[Health](ctx, s.client, "GET", "/health", nil, nil, options)
}
