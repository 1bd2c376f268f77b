package provider

import (
	"context"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The three data sources read the tenant as it is; each needs its own scope
// (metrics:read, calls:read, and any scope for the tenant).

type metricsDataSource struct{ api *client.Client }

type metricModel struct {
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	Unit        types.String `tfsdk:"unit"`
}

type metricsModel struct {
	Names   []types.String `tfsdk:"names"`
	Metrics []metricModel  `tfsdk:"metrics"`
}

func newMetricsDataSource() datasource.DataSource { return &metricsDataSource{} }

func (d *metricsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_metrics"
}

func (d *metricsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The metric catalogue: every name `GET /metrics` answers and an alert rule may watch (needs `metrics:read`).",
		Attributes: map[string]schema.Attribute{
			"names": schema.ListAttribute{
				MarkdownDescription: "Every metric name, in the catalogue's order.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"metrics": schema.ListNestedAttribute{
				MarkdownDescription: "Every metric with what it measures.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":        schema.StringAttribute{Computed: true, MarkdownDescription: "The name, e.g. `latency.total_ms.p95`."},
					"description": schema.StringAttribute{Computed: true, MarkdownDescription: "What it measures."},
					"unit":        schema.StringAttribute{Computed: true, MarkdownDescription: "Its unit, e.g. `ms`."},
				}},
			},
		},
	}
}

func (d *metricsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

func (d *metricsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	catalogue, err := d.api.MetricCatalogue(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Reading the metric catalogue failed", err.Error())
		return
	}
	model := metricsModel{Names: []types.String{}, Metrics: []metricModel{}}
	for _, metric := range catalogue {
		model.Names = append(model.Names, types.StringValue(metric.Name))
		model.Metrics = append(model.Metrics, metricModel{
			Name:        types.StringValue(metric.Name),
			Description: types.StringValue(metric.Description),
			Unit:        types.StringValue(metric.Unit),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

type agentsDataSource struct{ api *client.Client }

type agentModel struct {
	ID         types.String `tfsdk:"id"`
	Calls      types.Int64  `tfsdk:"calls"`
	LastCallAt types.String `tfsdk:"last_call_at"`
	Version    types.String `tfsdk:"version"`
	DeployedAt types.String `tfsdk:"deployed_at"`
}

type agentsModel struct {
	IDs    []types.String `tfsdk:"ids"`
	Agents []agentModel   `tfsdk:"agents"`
}

func newAgentsDataSource() datasource.DataSource { return &agentsDataSource{} }

func (d *agentsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agents"
}

func (d *agentsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The tenant's agents: every agent its calls or deployments name, by id (needs `calls:read`).",
		Attributes: map[string]schema.Attribute{
			"ids": schema.ListAttribute{
				MarkdownDescription: "Every agent id, sorted.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"agents": schema.ListNestedAttribute{
				MarkdownDescription: "Every agent with its calls and latest deployment.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":           schema.StringAttribute{Computed: true, MarkdownDescription: "The agent's id, as calls name it."},
					"calls":        schema.Int64Attribute{Computed: true, MarkdownDescription: "Its calls so far."},
					"last_call_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When its latest call started; null without calls."},
					"version":      schema.StringAttribute{Computed: true, MarkdownDescription: "The version of its latest deployment; null without one."},
					"deployed_at":  schema.StringAttribute{Computed: true, MarkdownDescription: "When that version was deployed."},
				}},
			},
		},
	}
}

func (d *agentsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

func (d *agentsDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	agents, err := d.api.Agents(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Reading the agents failed", err.Error())
		return
	}
	model := agentsModel{IDs: []types.String{}, Agents: []agentModel{}}
	for _, agent := range agents {
		model.IDs = append(model.IDs, types.StringValue(agent.ID))
		model.Agents = append(model.Agents, agentModel{
			ID:         types.StringValue(agent.ID),
			Calls:      types.Int64Value(agent.Calls),
			LastCallAt: types.StringPointerValue(agent.LastCallAt),
			Version:    types.StringPointerValue(agent.Version),
			DeployedAt: types.StringPointerValue(agent.DeployedAt),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}

type tenantDataSource struct{ api *client.Client }

type tenantModel struct {
	ID         types.String `tfsdk:"id"`
	Name       types.String `tfsdk:"name"`
	Status     types.String `tfsdk:"status"`
	CreatedAt  types.String `tfsdk:"created_at"`
	ActiveKeys types.Int64  `tfsdk:"active_keys"`
}

func newTenantDataSource() datasource.DataSource { return &tenantDataSource{} }

func (d *tenantDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_tenant"
}

func (d *tenantDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The tenant (organization) of the provider's API key.",
		Attributes: map[string]schema.Attribute{
			"id":          schema.StringAttribute{Computed: true, MarkdownDescription: "The tenant's id (a UUID)."},
			"name":        schema.StringAttribute{Computed: true, MarkdownDescription: "Its name."},
			"status":      schema.StringAttribute{Computed: true, MarkdownDescription: "`active` or `suspended`."},
			"created_at":  schema.StringAttribute{Computed: true, MarkdownDescription: "When it was created."},
			"active_keys": schema.Int64Attribute{Computed: true, MarkdownDescription: "Its keys that work now."},
		},
	}
}

func (d *tenantDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.api = clientOf(req.ProviderData, &resp.Diagnostics)
}

func (d *tenantDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	tenant, err := d.api.GetTenant(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Reading the tenant failed", err.Error())
		return
	}
	model := tenantModel{
		ID:         types.StringValue(tenant.ID),
		Name:       types.StringValue(tenant.Name),
		Status:     types.StringValue(tenant.Status),
		CreatedAt:  types.StringValue(tenant.CreatedAt),
		ActiveKeys: types.Int64Value(tenant.ActiveKeys),
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}
