package earshot

import (
	"context"
	"fmt"
	"iter"
	"net/http"
)

// DeploymentService records agent releases and measures their impact: /deployments.
type DeploymentService struct{ client *Client }

// List iterates the deployments that match params (nil for all), newest first.
func (s *DeploymentService) List(ctx context.Context, params *DeploymentListParams) iter.Seq2[Deployment, error] {
	return all[Deployment](ctx, s.client, "/deployments", params)
}

// ListPage fetches the first page of deployments.
func (s *DeploymentService) ListPage(ctx context.Context, params *DeploymentListParams) (*ListPage[Deployment], error) {
	return firstPage[Deployment](ctx, s.client, "/deployments", params)
}

// Create records a deployment of an agent version.
func (s *DeploymentService) Create(ctx context.Context, params DeploymentCreateParams, options ...RequestOption) (*WriteResult, error) {
	return answer[WriteResult](ctx, s.client, "POST", "/deployments", nil, params, options)
}

// Retrieve finds one deployment. The API has no route for one deployment, so
// it reads the list until it finds it, and answers a NOT_FOUND *Error when it
// is not there.
func (s *DeploymentService) Retrieve(ctx context.Context, id string) (*Deployment, error) {
	for deployment, err := range s.List(ctx, &DeploymentListParams{Limit: Int(200)}) {
		if err != nil {
			return nil, err
		}
		if deployment.ID == id {
			return &deployment, nil
		}
	}
	return nil, &Error{StatusCode: http.StatusNotFound, Code: CodeNotFound, Message: fmt.Sprintf("no deployment with id %s", id)}
}

// Impact compares the agent's metrics and outcomes before and after a deployment.
func (s *DeploymentService) Impact(ctx context.Context, id string, params *DeploymentImpactParams, options ...RequestOption) (*DeploymentImpact, error) {
	return answer[DeploymentImpact](ctx, s.client, "GET", pathOf("/deployments/%s/impact", id), params, nil, options)
}
