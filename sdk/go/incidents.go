package earshot

import (
	"context"
	"iter"
)

// IncidentService reads, opens and changes incidents: /incidents.
type IncidentService struct{ client *Client }

// List iterates the incidents that match params (nil for all).
func (s *IncidentService) List(ctx context.Context, params *IncidentListParams) iter.Seq2[Incident, error] {
	return all[Incident](ctx, s.client, "/incidents", params)
}

// ListPage fetches the first page of incidents.
func (s *IncidentService) ListPage(ctx context.Context, params *IncidentListParams) (*ListPage[Incident], error) {
	return firstPage[Incident](ctx, s.client, "/incidents", params)
}

// Create opens an incident.
func (s *IncidentService) Create(ctx context.Context, params IncidentCreateParams, options ...RequestOption) (*WriteResult, error) {
	return answer[WriteResult](ctx, s.client, "POST", "/incidents", nil, params, options)
}

// Update changes an incident (its status, severity, text, affected agents and calls) or adds a note.
func (s *IncidentService) Update(ctx context.Context, id string, params IncidentUpdateParams, options ...RequestOption) (*WriteResult, error) {
	return answer[WriteResult](ctx, s.client, "PATCH", pathOf("/incidents/%s", id), nil, params, options)
}
