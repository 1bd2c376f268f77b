package provider

import (
	"context"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type deploymentResource struct {
	api *client.Client
}

type deploymentModel struct {
	ID              types.String      `tfsdk:"id"`
	Agent           types.String      `tfsdk:"agent"`
	Version         types.String      `tfsdk:"version"`
	DeployedAt      timetypes.RFC3339 `tfsdk:"deployed_at"`
	PreviousVersion types.String      `tfsdk:"previous_version"`
	Environment     types.String      `tfsdk:"environment"`
	Description     types.String      `tfsdk:"description"`
	DeployedBy      types.String      `tfsdk:"deployed_by"`
}

func newDeploymentResource() resource.Resource { return &deploymentResource{} }

var (
	_ resource.ResourceWithConfigure   = &deploymentResource{}
	_ resource.ResourceWithImportState = &deploymentResource{}
)

func (r *deploymentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deployment"
}

func (r *deploymentResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	input := contract.DeploymentInput
	kept := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The record of a release of an agent, as a pipeline records it: Earshot compares the calls before " +
			"and after it (`GET /deployments/{id}/impact`). A change rewrites the record in place (writing the same id replaces it). " +
			"Earshot keeps deployment records as history and has no way to delete one: destroying this resource only " +
			"removes it from the state, and says so in a warning.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The deployment's id: chosen here, or by Earshot when left out.",
				Optional:            true,
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{checkString(input.Field("id"))},
			},
			"agent": schema.StringAttribute{
				MarkdownDescription: "The agent released.",
				Required:            true,
				Validators:          []validator.String{checkString(input.Field("agent"))},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "The version released.",
				Required:            true,
				Validators:          []validator.String{checkString(input.Field("version"))},
			},
			"deployed_at": schema.StringAttribute{
				MarkdownDescription: "When it was released (RFC 3339); when it was recorded if left out.",
				CustomType:          timetypes.RFC3339Type{},
				Optional:            true,
				Computed:            true,
				PlanModifiers:       kept,
				Validators:          []validator.String{checkString(input.Field("deployedAt"))},
			},
			"previous_version": schema.StringAttribute{
				MarkdownDescription: "The version it replaced.",
				Optional:            true,
				Validators:          []validator.String{checkString(input.Field("previousVersion"))},
			},
			"environment": schema.StringAttribute{
				MarkdownDescription: "Where it was released, e.g. `production`.",
				Optional:            true,
				Validators:          []validator.String{checkString(input.Field("environment"))},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "What changed.",
				Optional:            true,
				Validators:          []validator.String{checkString(input.Field("description"))},
			},
			"deployed_by": schema.StringAttribute{
				MarkdownDescription: "Who released it; the name of the provider's API key if left out.",
				Optional:            true,
				Computed:            true,
				PlanModifiers:       kept,
				Validators:          []validator.String{checkString(input.Field("deployedBy"))},
			},
		},
	}
}

func (r *deploymentResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

// record writes the whole record (a new one, or the same id again to replace it) and reads it back.
func (r *deploymentResource) record(ctx context.Context, plan deploymentModel, state stateSetter, diagnostics diagnosticsAppender) {
	id, err := r.api.RecordDeployment(ctx, deploymentInputOf(plan))
	if err != nil {
		diagnostics.AddError("Recording the deployment failed", err.Error())
		return
	}
	deployment, err := r.api.GetDeployment(ctx, id)
	if err != nil {
		diagnostics.AddError("Reading the deployment back failed", err.Error())
		return
	}
	model := deploymentState(plan, deployment)
	diagnostics.Append(state.Set(ctx, &model)...)
}

func (r *deploymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan deploymentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.record(ctx, plan, &resp.State, &resp.Diagnostics)
	}
}

func (r *deploymentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var prior deploymentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	deployment, err := r.api.GetDeployment(ctx, prior.ID.ValueString())
	if client.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the deployment failed", err.Error())
		return
	}
	model := deploymentState(prior, deployment)
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

func (r *deploymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan deploymentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.record(ctx, plan, &resp.State, &resp.Diagnostics)
	}
}

func (r *deploymentResource) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	resp.Diagnostics.AddWarning("The deployment stays in Earshot",
		"Earshot keeps deployment records as history and offers no deletion: this removes the deployment from the state only.")
}

func (r *deploymentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

func deploymentInputOf(plan deploymentModel) client.DeploymentInput {
	input := client.DeploymentInput{
		ID:              knownPointer(plan.ID),
		Agent:           plan.Agent.ValueString(),
		Version:         plan.Version.ValueString(),
		PreviousVersion: plan.PreviousVersion.ValueStringPointer(),
		Environment:     plan.Environment.ValueStringPointer(),
		Description:     plan.Description.ValueStringPointer(),
		DeployedBy:      knownPointer(plan.DeployedBy),
	}
	if !plan.DeployedAt.IsNull() && !plan.DeployedAt.IsUnknown() {
		input.DeployedAt = plan.DeployedAt.ValueStringPointer()
	}
	return input
}

func deploymentState(prior deploymentModel, deployment client.Deployment) deploymentModel {
	return deploymentModel{
		ID:              types.StringValue(deployment.ID),
		Agent:           types.StringValue(deployment.Agent),
		Version:         types.StringValue(deployment.Version),
		DeployedAt:      timeState(prior.DeployedAt, &deployment.DeployedAt),
		PreviousVersion: types.StringPointerValue(deployment.PreviousVersion),
		Environment:     types.StringPointerValue(deployment.Environment),
		Description:     types.StringPointerValue(deployment.Description),
		DeployedBy:      types.StringPointerValue(deployment.DeployedBy),
	}
}
