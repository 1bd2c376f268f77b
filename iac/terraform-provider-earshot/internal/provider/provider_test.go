package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Every schema is one the framework accepts (defaults only on computed attributes, and so on).
func TestEverySchemaIsValid(t *testing.T) {
	p := New("test")()
	var providerSchema fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &providerSchema)
	if providerSchema.Diagnostics.HasError() {
		t.Fatal(providerSchema.Diagnostics)
	}
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		var metadata resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "earshot"}, &metadata)
		var schema resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &schema)
		if problems := schema.Schema.ValidateImplementation(ctx); problems.HasError() {
			t.Errorf("%s: %v", metadata.TypeName, problems)
		}
		if _, ok := r.(resource.ResourceWithImportState); !ok {
			t.Errorf("%s cannot be imported", metadata.TypeName)
		}
	}
	names := map[string]bool{}
	for _, newDataSource := range p.DataSources(ctx) {
		d := newDataSource()
		var metadata datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "earshot"}, &metadata)
		names[metadata.TypeName] = true
		var schema datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &schema)
		if problems := schema.Schema.ValidateImplementation(ctx); problems.HasError() {
			t.Errorf("%s: %v", metadata.TypeName, problems)
		}
	}
	for _, name := range []string{"earshot_metrics", "earshot_agents", "earshot_tenant"} {
		if !names[name] {
			t.Errorf("no data source %s", name)
		}
	}
}
