package provider

import (
	"context"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type webhookSecretRotationResource struct {
	api *client.Client
}

type webhookSecretRotationModel struct {
	ID                 types.String `tfsdk:"id"`
	RotationTrigger    types.String `tfsdk:"rotation_trigger"`
	OverlapSeconds     types.Int64  `tfsdk:"overlap_seconds"`
	WebhookSecret      types.String `tfsdk:"webhook_secret"`
	PreviousValidUntil types.String `tfsdk:"previous_valid_until"`
}

func newWebhookSecretRotationResource() resource.Resource { return &webhookSecretRotationResource{} }

var (
	_ resource.ResourceWithConfigure   = &webhookSecretRotationResource{}
	_ resource.ResourceWithImportState = &webhookSecretRotationResource{}
)

func (r *webhookSecretRotationResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook_secret_rotation"
}

func (r *webhookSecretRotationResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	overlap := contract.RotationInput.Field("overlapSeconds")
	resp.Schema = schema.Schema{
		MarkdownDescription: "A rotation of the tenant's webhook secret, which signs ingest requests and alert notifications: " +
			"creating it rotates the secret, and the new one is in `webhook_secret`; signatures made with the previous one verify " +
			"for `overlap_seconds`. Changing `rotation_trigger` rotates again. When the secret is rotated outside Terraform, " +
			"the next plan creates this resource again (the secret it holds is no longer current). Destroying it changes nothing " +
			"in Earshot: a rotation cannot be undone.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The rotation: when its overlap ends (as `previous_valid_until`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"rotation_trigger": schema.StringAttribute{
				MarkdownDescription: "Any value; changing it rotates the secret again.",
				Optional:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"overlap_seconds": schema.Int64Attribute{
				MarkdownDescription: "How long signatures made with the previous secret still verify, in seconds.",
				Optional:            true,
				Computed:            true,
				Default:             int64default.StaticInt64(overlap.DefaultInt()),
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.RequiresReplace()},
				Validators:          []validator.Int64{checkInt64(overlap)},
			},
			"webhook_secret": schema.StringAttribute{
				MarkdownDescription: "The new webhook secret (`whsec_…`). Shown by the API once; null after an import.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"previous_valid_until": schema.StringAttribute{
				MarkdownDescription: "Until when signatures made with the previous secret verify.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

func (r *webhookSecretRotationResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

func (r *webhookSecretRotationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan webhookSecretRotationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	rotated, err := r.api.RotateWebhookSecret(ctx, plan.OverlapSeconds.ValueInt64())
	if err != nil {
		resp.Diagnostics.AddError("Rotating the webhook secret failed", err.Error())
		return
	}
	plan.ID = types.StringValue(rotated.PreviousValidUntil)
	plan.WebhookSecret = types.StringValue(rotated.WebhookSecret)
	plan.PreviousValidUntil = types.StringValue(rotated.PreviousValidUntil)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *webhookSecretRotationResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state webhookSecretRotationModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	status, err := r.api.GetWebhookSecretStatus(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Reading the webhook secret's rotation failed", err.Error())
		return
	}
	if !rotationIsCurrent(state.ID.ValueString(), status) {
		// Rotated again since: the secret held here no longer signs; the next plan rotates it again.
		resp.State.RemoveResource(ctx)
		return
	}
	state.PreviousValidUntil = types.StringValue(state.ID.ValueString())
	if state.OverlapSeconds.IsNull() {
		state.OverlapSeconds = types.Int64Value(contract.RotationInput.Field("overlapSeconds").DefaultInt())
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// rotationIsCurrent: the latest rotation is the one whose overlap ends when this one's does.
func rotationIsCurrent(id string, status client.WebhookSecretStatus) bool {
	return status.PreviousValidUntil != nil && *status.PreviousValidUntil == id
}

// Update is never called with a change (every attribute replaces); it keeps the plan.
func (r *webhookSecretRotationResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan webhookSecretRotationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *webhookSecretRotationResource) Delete(_ context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
}

// ImportState takes the rotation's previous_valid_until; the secret itself cannot be read back.
func (r *webhookSecretRotationResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
