package earshot

import (
	"context"
	"iter"
)

// InvoiceService reads the invoice history: GET /billing/invoices.
type InvoiceService struct{ client *Client }

// List iterates the invoices, newest first.
func (s *InvoiceService) List(ctx context.Context, params *InvoiceListParams) iter.Seq2[Invoice, error] {
	return all[Invoice](ctx, s.client, "/billing/invoices", params)
}

// ListPage fetches the first page of invoices.
func (s *InvoiceService) ListPage(ctx context.Context, params *InvoiceListParams) (*ListPage[Invoice], error) {
	return firstPage[Invoice](ctx, s.client, "/billing/invoices", params)
}

// AuditService reads the audit log: GET /audit.
type AuditService struct{ client *Client }

// List iterates the audit log's entries, newest first.
func (s *AuditService) List(ctx context.Context, params *AuditListParams) iter.Seq2[AuditEntry, error] {
	return all[AuditEntry](ctx, s.client, "/audit", params)
}

// ListPage fetches the first page of the audit log.
func (s *AuditService) ListPage(ctx context.Context, params *AuditListParams) (*ListPage[AuditEntry], error) {
	return firstPage[AuditEntry](ctx, s.client, "/audit", params)
}

// KeyService manages the tenant's API keys: /keys.
type KeyService struct{ client *Client }

// Create makes a key; its secret is in the answer, and only there.
func (s *KeyService) Create(ctx context.Context, params KeyCreateParams, options ...RequestOption) (*KeyWithSecret, error) {
	return answer[KeyWithSecret](ctx, s.client, "POST", "/keys", nil, params, options)
}

// List iterates the keys.
func (s *KeyService) List(ctx context.Context, params *KeyListParams) iter.Seq2[APIKey, error] {
	return all[APIKey](ctx, s.client, "/keys", params)
}

// ListPage fetches the first page of keys.
func (s *KeyService) ListPage(ctx context.Context, params *KeyListParams) (*ListPage[APIKey], error) {
	return firstPage[APIKey](ctx, s.client, "/keys", params)
}

// Retrieve fetches one key's record.
func (s *KeyService) Retrieve(ctx context.Context, id string, options ...RequestOption) (*APIKey, error) {
	return member[APIKey](ctx, s.client, "GET", pathOf("/keys/%s", id), "key", nil, options)
}

// Rotate gives a key a new secret; the old one keeps working for the overlap.
func (s *KeyService) Rotate(ctx context.Context, id string, params KeyRotateParams, options ...RequestOption) (*KeyWithSecret, error) {
	return answer[KeyWithSecret](ctx, s.client, "POST", pathOf("/keys/%s/rotate", id), nil, params, options)
}

// Revoke stops a key at once.
func (s *KeyService) Revoke(ctx context.Context, id string, options ...RequestOption) (*APIKey, error) {
	return member[APIKey](ctx, s.client, "POST", pathOf("/keys/%s/revoke", id), "key", struct{}{}, options)
}

// WebhookSecretService rotates the tenant's webhook secret: POST /webhook-secret/rotate.
type WebhookSecretService struct{ client *Client }

// Rotate makes a new webhook secret; the old one keeps working for the overlap.
func (s *WebhookSecretService) Rotate(ctx context.Context, params WebhookSecretRotateParams, options ...RequestOption) (*WebhookSecretRotation, error) {
	return answer[WebhookSecretRotation](ctx, s.client, "POST", "/webhook-secret/rotate", nil, params, options)
}

// TenantService reads the calling key's tenant: GET /tenant.
type TenantService struct{ client *Client }

// Retrieve answers the key's tenant: its id, name and status. Any key may
// ask, whatever its scopes.
func (s *TenantService) Retrieve(ctx context.Context, options ...RequestOption) (*Tenant, error) {
	return member[Tenant](ctx, s.client, "GET", "/tenant", "tenant", nil, options)
}
