package provider

import (
	"context"
	"time"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// rotatedElsewhere stands in rotation_trigger's state when the key was rotated
// outside Terraform: the secret in state no longer works after the overlap,
// and the plan's change of the trigger back to the configured one rotates
// again, so that Terraform holds the key's current secret.
const rotatedElsewhere = "(rotated outside Terraform)"

type apiKeyResource struct {
	api *client.Client
}

type apiKeyModel struct {
	ID                       types.String      `tfsdk:"id"`
	Name                     types.String      `tfsdk:"name"`
	Scopes                   types.Set         `tfsdk:"scopes"`
	Environment              types.String      `tfsdk:"environment"`
	Workspace                types.String      `tfsdk:"workspace"`
	IPAllowlist              types.Set         `tfsdk:"ip_allowlist"`
	ExpiresAt                timetypes.RFC3339 `tfsdk:"expires_at"`
	RotationTrigger          types.String      `tfsdk:"rotation_trigger"`
	RotationOverlapSeconds   types.Int64       `tfsdk:"rotation_overlap_seconds"`
	Secret                   types.String      `tfsdk:"secret"`
	Prefix                   types.String      `tfsdk:"prefix"`
	Status                   types.String      `tfsdk:"status"`
	CreatedAt                types.String      `tfsdk:"created_at"`
	PreviousSecretValidUntil types.String      `tfsdk:"previous_secret_valid_until"`
}

func newAPIKeyResource() resource.Resource { return &apiKeyResource{} }

var (
	_ resource.ResourceWithConfigure   = &apiKeyResource{}
	_ resource.ResourceWithImportState = &apiKeyResource{}
	_ resource.ResourceWithModifyPlan  = &apiKeyResource{}
)

func (r *apiKeyResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_api_key"
}

func (r *apiKeyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	input := contract.APIKeyInput
	overlap := contract.RotationInput.Field("overlapSeconds")
	unchanged := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An API key of the tenant. The key itself is in `secret`, known only to the configuration that created " +
			"or last rotated it. The API changes no key in place: a change of name, scopes, environment, workspace, allowlist or " +
			"expiry replaces the key (consider `lifecycle { create_before_destroy = true }`). Changing `rotation_trigger` " +
			"rotates it: a new secret, while the previous one keeps working for `rotation_overlap_seconds`. Destroying it revokes it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The key's id (a UUID).",
				Computed:            true,
				PlanModifiers:       unchanged,
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "A label for the key.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{checkString(input.Field("name"))},
			},
			"scopes": schema.SetAttribute{
				MarkdownDescription: "What the key may do, e.g. `calls:read`, `metrics:read`, `events:write`. At most the scopes of the provider's own key.",
				ElementType:         types.StringType,
				Required:            true,
				PlanModifiers:       []planmodifier.Set{setplanmodifier.RequiresReplace()},
				Validators:          []validator.Set{checkCount(input.Field("scopes")), eachElement(checkString(*input.Field("scopes").Items))},
			},
			"environment": schema.StringAttribute{
				MarkdownDescription: "`production` (an `ear_live_` key) or `staging` (an `ear_test_` key).",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(input.Field("environment").DefaultString()),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{checkString(input.Field("environment"))},
			},
			"workspace": schema.StringAttribute{
				MarkdownDescription: "The workspace the key belongs to.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(input.Field("workspace").DefaultString()),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{checkString(input.Field("workspace"))},
			},
			"ip_allowlist": schema.SetAttribute{
				MarkdownDescription: "IPv4 or IPv6 addresses or CIDRs the key may be used from; any address when left out. " +
					"An address means its /32 or /128, and a CIDR's host bits are ignored (`10.0.0.1/8` is `10.0.0.0/8`).",
				ElementType:   types.StringType,
				Optional:      true,
				PlanModifiers: []planmodifier.Set{replaceForOtherNetworks},
				Validators:    []validator.Set{checkCount(input.Field("ipAllowlist")), eachElement(checkString(*input.Field("ipAllowlist").Items))},
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the key stops working (RFC 3339, in the future when created); never when left out.",
				CustomType:          timetypes.RFC3339Type{},
				Optional:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{checkString(input.Field("expiresAt"))},
			},
			"rotation_trigger": schema.StringAttribute{
				MarkdownDescription: "Any value; changing it rotates the key. If the key is rotated outside Terraform, the next plan " +
					"shows this attribute changing from `" + rotatedElsewhere + "` and the apply rotates it again, so that `secret` is current.",
				Optional: true,
			},
			"rotation_overlap_seconds": schema.Int64Attribute{
				MarkdownDescription: "How long the previous secret keeps working after a rotation, in seconds.",
				Optional:            true,
				Computed:            true,
				Default:             int64default.StaticInt64(overlap.DefaultInt()),
				Validators:          []validator.Int64{checkInt64(overlap)},
			},
			"secret": schema.StringAttribute{
				MarkdownDescription: "The API key itself. Shown by the API once, at creation and at each rotation; null after an import.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       unchanged,
			},
			"prefix": schema.StringAttribute{
				MarkdownDescription: "The leading characters of the key, enough to recognise it.",
				Computed:            true,
				PlanModifiers:       unchanged,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "`active`, `rotating` (the previous secret still works), or `expired`.",
				Computed:            true,
				PlanModifiers:       unchanged,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the key was created.",
				Computed:            true,
				PlanModifiers:       unchanged,
			},
			"previous_secret_valid_until": schema.StringAttribute{
				MarkdownDescription: "After a rotation: until when the previous secret works.",
				Computed:            true,
				PlanModifiers:       unchanged,
			},
		},
	}
}

func (r *apiKeyResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

func (r *apiKeyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan apiKeyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		if problem := expiryProblem(plan.ExpiresAt, time.Now()); problem != "" {
			resp.Diagnostics.AddAttributeError(path.Root("expires_at"), "Invalid expiry", problem)
		}
		return
	}
	var state apiKeyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || plan.RotationTrigger.Equal(state.RotationTrigger) {
		return
	}
	for _, attribute := range []string{"secret", "prefix", "status", "previous_secret_valid_until"} {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(attribute), types.StringUnknown())...)
	}
}

// expiryProblem mirrors POST /keys: an expiry must be in the future.
func expiryProblem(expiresAt timetypes.RFC3339, now time.Time) string {
	if expiresAt.IsNull() || expiresAt.IsUnknown() {
		return ""
	}
	at, diagnostics := expiresAt.ValueRFC3339Time()
	if diagnostics.HasError() || at.After(now) {
		return ""
	}
	return "expires_at must be in the future: the API refuses a key that has already expired."
}

func (r *apiKeyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan apiKeyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	input := client.APIKeyInput{
		Name:        plan.Name.ValueString(),
		Scopes:      stringsOf(ctx, plan.Scopes, &resp.Diagnostics),
		Environment: plan.Environment.ValueString(),
		Workspace:   plan.Workspace.ValueString(),
		IPAllowlist: "any",
		ExpiresAt:   plan.ExpiresAt.ValueStringPointer(),
	}
	if entries := stringsOf(ctx, plan.IPAllowlist, &resp.Diagnostics); len(entries) > 0 {
		input.IPAllowlist = entries
	}
	if resp.Diagnostics.HasError() {
		return
	}
	issued, err := r.api.CreateAPIKey(ctx, input)
	if err != nil {
		resp.Diagnostics.AddError("Creating the API key failed", err.Error())
		return
	}
	state := apiKeyState(ctx, plan, issued.Key, &resp.Diagnostics)
	state.Secret = types.StringValue(issued.Secret)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *apiKeyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var prior apiKeyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	record, err := r.api.GetAPIKey(ctx, prior.ID.ValueString())
	if client.IsNotFound(err) || (err == nil && record.Status == "revoked") {
		// Revoked or gone outside Terraform: the next plan creates a new key.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the API key failed", err.Error())
		return
	}
	state := apiKeyState(ctx, prior, record, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *apiKeyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state apiKeyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	next := plan
	if !plan.RotationTrigger.Equal(state.RotationTrigger) {
		rotated, err := r.api.RotateAPIKey(ctx, state.ID.ValueString(), plan.RotationOverlapSeconds.ValueInt64())
		if err != nil {
			resp.Diagnostics.AddError("Rotating the API key failed", err.Error())
			return
		}
		next = apiKeyState(ctx, plan, rotated.Key, &resp.Diagnostics)
		next.Secret = types.StringValue(rotated.Secret)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &next)...)
}

func (r *apiKeyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state apiKeyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if _, err := r.api.RevokeAPIKey(ctx, state.ID.ValueString()); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.AddError("Revoking the API key failed", err.Error())
	}
}

func (r *apiKeyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// apiKeyState is the state for a key's record: the record's values, in the
// prior state's spelling where they mean the same (an address and its /32),
// and a rotation made elsewhere noted in rotation_trigger.
func apiKeyState(ctx context.Context, prior apiKeyModel, record client.APIKey, diagnostics diagnosticsAppender) apiKeyModel {
	state := prior
	state.ID = types.StringValue(record.ID)
	state.Name = types.StringValue(record.Name)
	state.Scopes = setOf(ctx, record.Scopes, diagnostics)
	state.Environment = types.StringValue(record.Environment)
	state.Workspace = types.StringValue(record.Workspace)
	state.IPAllowlist = allowlistState(ctx, prior.IPAllowlist, record.IPAllowlist, diagnostics)
	state.ExpiresAt = timeState(prior.ExpiresAt, record.ExpiresAt)
	state.Prefix = types.StringValue(record.Prefix)
	state.Status = types.StringValue(record.Status)
	state.CreatedAt = types.StringValue(record.CreatedAt)
	if state.RotationOverlapSeconds.IsNull() || state.RotationOverlapSeconds.IsUnknown() {
		state.RotationOverlapSeconds = types.Int64Value(contract.RotationInput.Field("overlapSeconds").DefaultInt())
	}
	rotated := types.StringPointerValue(record.PreviousSecretValidUntil)
	// Only a state that was read or applied before knows the rotation it holds (not a plan, not an import).
	known := !prior.CreatedAt.IsNull() && !prior.CreatedAt.IsUnknown() && !prior.PreviousSecretValidUntil.IsUnknown()
	if known && !prior.PreviousSecretValidUntil.Equal(rotated) {
		state.RotationTrigger = types.StringValue(rotatedElsewhere)
	}
	state.PreviousSecretValidUntil = rotated
	if state.Secret.IsUnknown() {
		state.Secret = types.StringNull()
	}
	return state
}
