package earshot

import (
	"context"
	"iter"
)

// ProviderService manages the voice providers' webhook connections:
// /providers (needs providers:read and providers:write).
type ProviderService struct{ client *Client }

// Connect connects a provider. The answer's Connection.WebhookURL is what to
// paste at the provider; its Standard Webhooks Secret is shown only here.
func (s *ProviderService) Connect(ctx context.Context, params ProviderConnectionCreateParams, options ...RequestOption) (*ProviderConnectionIssued, error) {
	return answer[ProviderConnectionIssued](ctx, s.client, "POST", "/providers", nil, params, options)
}

// List iterates the connections that match params (nil for all).
func (s *ProviderService) List(ctx context.Context, params *ProviderConnectionListParams) iter.Seq2[ProviderConnection, error] {
	return all[ProviderConnection](ctx, s.client, "/providers", params)
}

// ListPage fetches the first page of connections.
func (s *ProviderService) ListPage(ctx context.Context, params *ProviderConnectionListParams) (*ListPage[ProviderConnection], error) {
	return firstPage[ProviderConnection](ctx, s.client, "/providers", params)
}

// Retrieve fetches one connection (never its credentials).
func (s *ProviderService) Retrieve(ctx context.Context, id string, options ...RequestOption) (*ProviderConnection, error) {
	return member[ProviderConnection](ctx, s.client, "GET", pathOf("/providers/%s", id), "connection", nil, options)
}

// Rotate gives a connection new credentials (or, without them, a new
// Standard Webhooks secret); the previous ones keep verifying for the overlap.
func (s *ProviderService) Rotate(ctx context.Context, id string, params ProviderCredentialRotateParams, options ...RequestOption) (*ProviderConnectionIssued, error) {
	return answer[ProviderConnectionIssued](ctx, s.client, "POST", pathOf("/providers/%s/rotate", id), nil, params, options)
}

// Disable stops taking the provider's deliveries: its webhook answers 403
// until the connection is enabled again.
func (s *ProviderService) Disable(ctx context.Context, id string, options ...RequestOption) (*ProviderConnection, error) {
	return member[ProviderConnection](ctx, s.client, "POST", pathOf("/providers/%s/disable", id), "connection", struct{}{}, options)
}

// Enable takes the provider's deliveries again.
func (s *ProviderService) Enable(ctx context.Context, id string, options ...RequestOption) (*ProviderConnection, error) {
	return member[ProviderConnection](ctx, s.client, "POST", pathOf("/providers/%s/enable", id), "connection", struct{}{}, options)
}

// Delete deletes a connection; its webhook URL answers 404 from then on.
func (s *ProviderService) Delete(ctx context.Context, id string, options ...RequestOption) (*ProviderConnectionDeleted, error) {
	return answer[ProviderConnectionDeleted](ctx, s.client, "DELETE", pathOf("/providers/%s", id), nil, nil, options)
}
