package provider

import (
	"context"
	"os"
	"testing"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// The acceptance tests (TF_ACC=1) run a real Terraform-compatible CLI
// (TF_ACC_TERRAFORM_PATH) against a live Earshot (EARSHOT_BASE_URL,
// EARSHOT_API_KEY): test/iac/terraform-provider.int.test.ts provides both.

// providers serves this provider in-process to the CLI, as earshot/earshot
// (TF_ACC_PROVIDER_NAMESPACE=earshot; TF_ACC_PROVIDER_HOST names the CLI's registry).
var providers = map[string]func() (tfprotov6.ProviderServer, error){
	"earshot": providerserver.NewProtocol6WithError(New("test")()),
}

// header is the terraform block every test configuration starts with.
const header = `
terraform {
  required_providers {
    earshot = { source = "earshot/earshot" }
  }
}
`

func preCheck(t *testing.T) {
	t.Helper()
	for _, name := range []string{"EARSHOT_BASE_URL", "EARSHOT_API_KEY", "TF_ACC_TERRAFORM_PATH"} {
		if os.Getenv(name) == "" {
			t.Fatalf("%s must be set for acceptance tests", name)
		}
	}
}

// api is a client of the same tenant, for changes made "outside Terraform" and for checks.
func api(t *testing.T) *client.Client {
	t.Helper()
	c, err := client.New(os.Getenv("EARSHOT_BASE_URL"), os.Getenv("EARSHOT_API_KEY"), "acceptance-test")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func acceptance(t *testing.T, steps ...resource.TestStep) resource.TestCase {
	return resource.TestCase{
		PreCheck:                 func() { preCheck(t) },
		ProtoV6ProviderFactories: providers,
		Steps:                    steps,
	}
}

// must fails the test at a step's PreConfig, where no error can be returned.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

var background = context.Background()
