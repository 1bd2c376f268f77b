package provider

import (
	"context"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type alertRuleResource struct {
	api *client.Client
}

type alertRuleModel struct {
	ID          types.String  `tfsdk:"id"`
	Name        types.String  `tfsdk:"name"`
	Metric      types.String  `tfsdk:"metric"`
	AgentID     types.String  `tfsdk:"agent_id"`
	Comparison  types.String  `tfsdk:"comparison"`
	Threshold   types.Float64 `tfsdk:"threshold"`
	WindowMs    types.Int64   `tfsdk:"window_ms"`
	ForMs       types.Int64   `tfsdk:"for_ms"`
	Severity    types.String  `tfsdk:"severity"`
	Enabled     types.Bool    `tfsdk:"enabled"`
	Description types.String  `tfsdk:"description"`
}

func newAlertRuleResource() resource.Resource { return &alertRuleResource{} }

var (
	_ resource.ResourceWithConfigure   = &alertRuleResource{}
	_ resource.ResourceWithImportState = &alertRuleResource{}
)

func (r *alertRuleResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_alert_rule"
}

func (r *alertRuleResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	input, patch := contract.AlertRuleInput, contract.AlertRulePatch
	resp.Schema = schema.Schema{
		MarkdownDescription: "An alert rule: \"p95 total latency > 1,200 ms over 5 minutes, held for 5 minutes\". Earshot evaluates it " +
			"every minute; a breach fires an alert, opens an incident and notifies the alert webhook.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The rule's id: chosen here, or by Earshot when left out.",
				Optional:            true,
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{checkString(input.Field("id"))},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "A name for people.",
				Optional:            true,
				PlanModifiers:       []planmodifier.String{replaceWhenCleared(patch.Field("name"))},
				Validators:          []validator.String{checkString(input.Field("name"))},
			},
			"metric": schema.StringAttribute{
				MarkdownDescription: "The metric watched: a name of the metric catalogue (the `earshot_metrics` data source), such as `latency.total_ms.p95`.",
				Required:            true,
				Validators:          []validator.String{checkString(input.Field("metric"))},
			},
			"agent_id": schema.StringAttribute{
				MarkdownDescription: "Watch one agent; all agents when left out.",
				Optional:            true,
				PlanModifiers:       []planmodifier.String{replaceWhenCleared(patch.Field("agentId"))},
				Validators:          []validator.String{checkString(input.Field("agentId"))},
			},
			"comparison": schema.StringAttribute{
				MarkdownDescription: "How the metric compares with the threshold to breach: `gt`, `gte`, `lt` or `lte`.",
				Required:            true,
				Validators:          []validator.String{checkString(input.Field("comparison"))},
			},
			"threshold": schema.Float64Attribute{
				MarkdownDescription: "The value compared with, in the metric's unit.",
				Required:            true,
			},
			"window_ms": schema.Int64Attribute{
				MarkdownDescription: "The window the metric is computed over, ending at each evaluation, in milliseconds.",
				Optional:            true,
				Computed:            true,
				Default:             int64default.StaticInt64(input.Field("windowMs").DefaultInt()),
				Validators:          []validator.Int64{checkInt64(input.Field("windowMs"))},
			},
			"for_ms": schema.Int64Attribute{
				MarkdownDescription: "How long the breach must hold before the alert fires, in milliseconds.",
				Optional:            true,
				Computed:            true,
				Default:             int64default.StaticInt64(input.Field("forMs").DefaultInt()),
				Validators:          []validator.Int64{checkInt64(input.Field("forMs"))},
			},
			"severity": schema.StringAttribute{
				MarkdownDescription: "`critical`, `warning` or `info`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString(input.Field("severity").DefaultString()),
				Validators:          []validator.String{checkString(input.Field("severity"))},
			},
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the rule is evaluated.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(input.Field("enabled").DefaultBool()),
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "What the rule is for, and what to do when it fires.",
				Optional:            true,
				PlanModifiers:       []planmodifier.String{replaceWhenCleared(patch.Field("description"))},
				Validators:          []validator.String{checkString(input.Field("description"))},
			},
		},
	}
}

func (r *alertRuleResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

func (r *alertRuleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan alertRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, err := r.api.CreateAlertRule(ctx, alertRuleInputOf(plan))
	if err != nil {
		resp.Diagnostics.AddError("Creating the alert rule failed", err.Error())
		return
	}
	r.readInto(ctx, id, &resp.State, &resp.Diagnostics)
}

func (r *alertRuleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var prior alertRuleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	rule, err := r.api.GetAlertRule(ctx, prior.ID.ValueString())
	if client.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Reading the alert rule failed", err.Error())
		return
	}
	state := alertRuleState(rule)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *alertRuleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan alertRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.PatchAlertRule(ctx, plan.ID.ValueString(), alertRulePatchOf(plan)); err != nil {
		resp.Diagnostics.AddError("Updating the alert rule failed", err.Error())
		return
	}
	r.readInto(ctx, plan.ID.ValueString(), &resp.State, &resp.Diagnostics)
}

func (r *alertRuleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state alertRuleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.DeleteAlertRule(ctx, state.ID.ValueString()); err != nil && !client.IsNotFound(err) {
		resp.Diagnostics.AddError("Deleting the alert rule failed", err.Error())
	}
}

func (r *alertRuleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// readInto sets the state to the rule as written: the API answers a write once it can be read.
func (r *alertRuleResource) readInto(ctx context.Context, id string, state stateSetter, diagnostics diagnosticsAppender) {
	rule, err := r.api.GetAlertRule(ctx, id)
	if err != nil {
		diagnostics.AddError("Reading the alert rule back failed", err.Error())
		return
	}
	model := alertRuleState(rule)
	diagnostics.Append(state.Set(ctx, &model)...)
}

func alertRuleInputOf(plan alertRuleModel) client.AlertRuleInput {
	return client.AlertRuleInput{
		ID:          knownPointer(plan.ID),
		Name:        plan.Name.ValueStringPointer(),
		Metric:      plan.Metric.ValueString(),
		AgentID:     plan.AgentID.ValueStringPointer(),
		Comparison:  plan.Comparison.ValueString(),
		Threshold:   plan.Threshold.ValueFloat64(),
		WindowMs:    plan.WindowMs.ValueInt64(),
		ForMs:       plan.ForMs.ValueInt64(),
		Severity:    plan.Severity.ValueString(),
		Enabled:     plan.Enabled.ValueBool(),
		Description: plan.Description.ValueStringPointer(),
	}
}

// alertRulePatchOf is the whole rule as a PATCH: agentId null clears it; a
// cleared name or description never reaches here (the plan replaces the rule).
func alertRulePatchOf(plan alertRuleModel) map[string]any {
	patch := map[string]any{
		"metric":     plan.Metric.ValueString(),
		"agentId":    plan.AgentID.ValueStringPointer(),
		"comparison": plan.Comparison.ValueString(),
		"threshold":  plan.Threshold.ValueFloat64(),
		"windowMs":   plan.WindowMs.ValueInt64(),
		"forMs":      plan.ForMs.ValueInt64(),
		"severity":   plan.Severity.ValueString(),
		"enabled":    plan.Enabled.ValueBool(),
	}
	if !plan.Name.IsNull() {
		patch["name"] = plan.Name.ValueString()
	}
	if !plan.Description.IsNull() {
		patch["description"] = plan.Description.ValueString()
	}
	return patch
}

func alertRuleState(rule client.AlertRule) alertRuleModel {
	return alertRuleModel{
		ID:          types.StringValue(rule.ID),
		Name:        types.StringPointerValue(rule.Name),
		Metric:      types.StringValue(rule.Metric),
		AgentID:     types.StringPointerValue(rule.AgentID),
		Comparison:  types.StringValue(rule.Comparison),
		Threshold:   types.Float64Value(rule.Threshold),
		WindowMs:    types.Int64Value(rule.WindowMs),
		ForMs:       types.Int64Value(rule.ForMs),
		Severity:    types.StringPointerValue(rule.Severity),
		Enabled:     types.BoolValue(rule.Enabled),
		Description: types.StringPointerValue(rule.Description),
	}
}
