package earshot

import (
	"context"
	"iter"
)

// CallService reads and erases calls: GET /calls, GET /calls/{id} and DELETE /calls/{id}.
type CallService struct{ client *Client }

// List iterates the calls that match params (nil for all), newest first by default, page after page.
func (s *CallService) List(ctx context.Context, params *CallListParams) iter.Seq2[Call, error] {
	return all[Call](ctx, s.client, "/calls", params)
}

// ListPage fetches the first page of calls; NextPage fetches the rest.
func (s *CallService) ListPage(ctx context.Context, params *CallListParams) (*ListPage[Call], error) {
	return firstPage[Call](ctx, s.client, "/calls", params)
}

// Retrieve fetches one call with its turns, transcript and traces.
func (s *CallService) Retrieve(ctx context.Context, id string, options ...RequestOption) (*CallDetail, error) {
	return member[CallDetail](ctx, s.client, "GET", pathOf("/calls/%s", id), "call", nil, options)
}

// Erase erases a call: its data key is destroyed, so its events' personal
// fields in the log can no longer be read, and its rows go. The reason is kept
// in the audit log. It needs calls:write; a NOT_FOUND *Error when the tenant
// has no such call.
func (s *CallService) Erase(ctx context.Context, id string, params CallEraseParams, options ...RequestOption) (*CallErased, error) {
	return answer[CallErased](ctx, s.client, "DELETE", pathOf("/calls/%s", id), params, nil, options)
}

// OutcomeService reads and records call outcomes: GET and POST /outcomes.
type OutcomeService struct{ client *Client }

// List iterates the outcomes that match params (nil for all).
func (s *OutcomeService) List(ctx context.Context, params *OutcomeListParams) iter.Seq2[Outcome, error] {
	return all[Outcome](ctx, s.client, "/outcomes", params)
}

// ListPage fetches the first page of outcomes.
func (s *OutcomeService) ListPage(ctx context.Context, params *OutcomeListParams) (*ListPage[Outcome], error) {
	return firstPage[Outcome](ctx, s.client, "/outcomes", params)
}

// Create records (upserts) an outcome of a call.
func (s *OutcomeService) Create(ctx context.Context, params OutcomeCreateParams, options ...RequestOption) (*WriteResult, error) {
	return answer[WriteResult](ctx, s.client, "POST", "/outcomes", nil, params, options)
}
