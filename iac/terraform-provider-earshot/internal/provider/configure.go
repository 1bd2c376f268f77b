package provider

import (
	"fmt"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// clientOf answers the provider's client from ProviderData; nil (without an error) before the provider is configured.
func clientOf(providerData any, diagnostics *diag.Diagnostics) *client.Client {
	if providerData == nil {
		return nil
	}
	api, ok := providerData.(*client.Client)
	if !ok {
		diagnostics.AddError("Unexpected provider data", fmt.Sprintf("expected *client.Client, got %T", providerData))
		return nil
	}
	return api
}
