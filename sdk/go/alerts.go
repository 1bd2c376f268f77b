package earshot

import (
	"context"
	"iter"
)

// AlertService reads alerts and their notifications, and sets where they are sent: /alerts.
type AlertService struct {
	client *Client
	// Webhook is the URL alert notifications are delivered to.
	Webhook *AlertWebhookService
}

// List iterates the alerts that match params (nil for all).
func (s *AlertService) List(ctx context.Context, params *AlertListParams) iter.Seq2[Alert, error] {
	return all[Alert](ctx, s.client, "/alerts", params)
}

// ListPage fetches the first page of alerts.
func (s *AlertService) ListPage(ctx context.Context, params *AlertListParams) (*ListPage[Alert], error) {
	return firstPage[Alert](ctx, s.client, "/alerts", params)
}

// Notifications iterates the delivery attempts of alert notifications to the webhook.
func (s *AlertService) Notifications(ctx context.Context, params *AlertNotificationListParams) iter.Seq2[AlertNotification, error] {
	return all[AlertNotification](ctx, s.client, "/alerts/notifications", params)
}

// NotificationsPage fetches the first page of notification attempts.
func (s *AlertService) NotificationsPage(ctx context.Context, params *AlertNotificationListParams) (*ListPage[AlertNotification], error) {
	return firstPage[AlertNotification](ctx, s.client, "/alerts/notifications", params)
}

// AlertWebhookService reads and sets the alert webhook: GET and PUT /alerts/webhook.
type AlertWebhookService struct{ client *Client }

// Get answers where alert notifications go, if anywhere.
func (s *AlertWebhookService) Get(ctx context.Context, options ...RequestOption) (*AlertWebhook, error) {
	return answer[AlertWebhook](ctx, s.client, "GET", "/alerts/webhook", nil, nil, options)
}

// Set sets where alert notifications go, and whether they are sent.
func (s *AlertWebhookService) Set(ctx context.Context, params AlertWebhookParams, options ...RequestOption) (*AlertWebhook, error) {
	return answer[AlertWebhook](ctx, s.client, "PUT", "/alerts/webhook", nil, params, options)
}

// AlertRuleService manages alert rules: /alerts/rules.
type AlertRuleService struct{ client *Client }

// List iterates the alert rules.
func (s *AlertRuleService) List(ctx context.Context, params *AlertRuleListParams) iter.Seq2[AlertRule, error] {
	return all[AlertRule](ctx, s.client, "/alerts/rules", params)
}

// ListPage fetches the first page of alert rules.
func (s *AlertRuleService) ListPage(ctx context.Context, params *AlertRuleListParams) (*ListPage[AlertRule], error) {
	return firstPage[AlertRule](ctx, s.client, "/alerts/rules", params)
}

// Create adds an alert rule.
func (s *AlertRuleService) Create(ctx context.Context, params AlertRuleCreateParams, options ...RequestOption) (*WriteResult, error) {
	return answer[WriteResult](ctx, s.client, "POST", "/alerts/rules", nil, params, options)
}

// Retrieve fetches one alert rule.
func (s *AlertRuleService) Retrieve(ctx context.Context, id string, options ...RequestOption) (*AlertRule, error) {
	return member[AlertRule](ctx, s.client, "GET", pathOf("/alerts/rules/%s", id), "rule", nil, options)
}

// Update changes an alert rule.
func (s *AlertRuleService) Update(ctx context.Context, id string, params AlertRuleUpdateParams, options ...RequestOption) (*WriteResult, error) {
	return answer[WriteResult](ctx, s.client, "PATCH", pathOf("/alerts/rules/%s", id), nil, params, options)
}

// Delete removes an alert rule.
func (s *AlertRuleService) Delete(ctx context.Context, id string, options ...RequestOption) (*WriteResult, error) {
	return answer[WriteResult](ctx, s.client, "DELETE", pathOf("/alerts/rules/%s", id), nil, nil, options)
}
