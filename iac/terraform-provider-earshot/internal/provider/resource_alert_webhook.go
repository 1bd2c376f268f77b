package provider

import (
	"context"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/earshot/terraform-provider-earshot/internal/contract"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// alertWebhookID names the tenant's one alert webhook.
const alertWebhookID = "alert-webhook"

type alertWebhookResource struct {
	api *client.Client
}

type alertWebhookModel struct {
	ID      types.String `tfsdk:"id"`
	URL     types.String `tfsdk:"url"`
	Enabled types.Bool   `tfsdk:"enabled"`
}

func newAlertWebhookResource() resource.Resource { return &alertWebhookResource{} }

var (
	_ resource.ResourceWithConfigure   = &alertWebhookResource{}
	_ resource.ResourceWithImportState = &alertWebhookResource{}
)

func (r *alertWebhookResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_alert_webhook"
}

func (r *alertWebhookResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	input := contract.AlertWebhookInput
	resp.Schema = schema.Schema{
		MarkdownDescription: "Where the tenant's alert notifications go: one HTTPS (or HTTP) endpoint per tenant, called with each " +
			"alert fired and resolved, signed with the tenant's webhook secret. Destroying it removes it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Always `" + alertWebhookID + "`: a tenant has one.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"url": schema.StringAttribute{
				MarkdownDescription: "The endpoint's URL (http or https).",
				Required:            true,
				Validators:          []validator.String{checkString(input.Field("url"))},
			},
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether notifications are sent.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(input.Field("enabled").DefaultBool()),
			},
		},
	}
}

func (r *alertWebhookResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

func (r *alertWebhookResource) put(ctx context.Context, plan alertWebhookModel, state stateSetter, diagnostics diagnosticsAppender) {
	answer, err := r.api.PutAlertWebhook(ctx, plan.URL.ValueString(), plan.Enabled.ValueBool())
	if err != nil {
		diagnostics.AddError("Setting the alert webhook failed", err.Error())
		return
	}
	model := alertWebhookState(answer)
	diagnostics.Append(state.Set(ctx, &model)...)
}

func (r *alertWebhookResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan alertWebhookModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.put(ctx, plan, &resp.State, &resp.Diagnostics)
	}
}

func (r *alertWebhookResource) Read(ctx context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	answer, err := r.api.GetAlertWebhook(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Reading the alert webhook failed", err.Error())
		return
	}
	if answer.URL == nil {
		resp.State.RemoveResource(ctx)
		return
	}
	model := alertWebhookState(answer)
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

func (r *alertWebhookResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan alertWebhookModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.put(ctx, plan, &resp.State, &resp.Diagnostics)
	}
}

func (r *alertWebhookResource) Delete(ctx context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	if err := r.api.DeleteAlertWebhook(ctx); err != nil {
		resp.Diagnostics.AddError("Removing the alert webhook failed", err.Error())
	}
}

// ImportState takes any id: the tenant has one webhook, read whatever the id says.
func (r *alertWebhookResource) ImportState(ctx context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	model := alertWebhookModel{ID: types.StringValue(alertWebhookID), URL: types.StringNull(), Enabled: types.BoolNull()}
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

func alertWebhookState(answer client.AlertWebhook) alertWebhookModel {
	return alertWebhookModel{
		ID:      types.StringValue(alertWebhookID),
		URL:     types.StringPointerValue(answer.URL),
		Enabled: types.BoolValue(answer.Enabled),
	}
}
