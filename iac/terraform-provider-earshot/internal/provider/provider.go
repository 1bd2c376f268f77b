// Package provider is the Earshot provider for Terraform and OpenTofu:
// the tenant's keys, alert rules, alert webhook, deployments and webhook
// secret as resources, and its metric catalogue, agents and tenant as data.
package provider

import (
	"context"
	"os"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Address is the provider's registry address, `earshot/earshot`.
const Address = "registry.terraform.io/earshot/earshot"

type earshotProvider struct {
	version string
}

type providerModel struct {
	APIKey  types.String `tfsdk:"api_key"`
	BaseURL types.String `tfsdk:"base_url"`
}

// New answers the provider's constructor for providerserver.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &earshotProvider{version: version} }
}

func (p *earshotProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "earshot"
	resp.Version = p.version
}

func (p *earshotProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages an Earshot tenant: its API keys, alert rules, alert webhook, " +
			"deployments and webhook secret, and reads its metric catalogue, agents and tenant record.",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "An Earshot API key (`ear_live_…` or `ear_test_…`) holding the scopes of what the configuration manages " +
					"(`keys:write` for keys and the webhook secret, `alerts:write` for alerting, `deployments:write` for deployments). " +
					"Defaults to `EARSHOT_API_KEY`.",
				Optional:  true,
				Sensitive: true,
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "The API's base URL, ending in `/api/v1` (the service root alone means the same). " +
					"Defaults to `EARSHOT_BASE_URL`, then `" + client.DefaultBaseURL + "`.",
				Optional: true,
			},
		},
	}
}

func (p *earshotProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var config providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if config.APIKey.IsUnknown() || config.BaseURL.IsUnknown() {
		// Known only after another resource applies: the provider is configured again then.
		return
	}
	apiKey := firstSet(config.APIKey.ValueString(), os.Getenv("EARSHOT_API_KEY"))
	if apiKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "No Earshot API key",
			"Set api_key in the provider block or EARSHOT_API_KEY in the environment.")
	}
	baseURL := firstSet(config.BaseURL.ValueString(), os.Getenv("EARSHOT_BASE_URL"), client.DefaultBaseURL)
	api, err := client.New(baseURL, apiKey, p.version)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid Earshot base URL", err.Error())
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.ResourceData = api
	resp.DataSourceData = api
}

func firstSet(values ...string) string {
	for _, value := range values {
		if value != "" {
			return value
		}
	}
	return ""
}

func (p *earshotProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		newAPIKeyResource,
		newAlertRuleResource,
		newAlertWebhookResource,
		newDeploymentResource,
		newWebhookSecretRotationResource,
	}
}

func (p *earshotProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		newMetricsDataSource,
		newAgentsDataSource,
		newTenantDataSource,
	}
}
