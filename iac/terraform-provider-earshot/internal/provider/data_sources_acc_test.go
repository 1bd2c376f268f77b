package provider

import (
	"testing"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

func TestAccDataSources(t *testing.T) {
	resource.Test(t, acceptance(t,
		resource.TestStep{
			PreConfig: func() {
				id := "acc-billing-v9"
				_, err := api(t).RecordDeployment(background, client.DeploymentInput{ID: &id, Agent: "agent_billing", Version: "v9"})
				must(t, err)
			},
			Config: header + `
data "earshot_tenant" "mine" {}
data "earshot_metrics" "catalogue" {}
data "earshot_agents" "all" {}
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrSet("data.earshot_tenant.mine", "id"),
				resource.TestCheckResourceAttr("data.earshot_tenant.mine", "status", "active"),
				resource.TestCheckResourceAttrSet("data.earshot_tenant.mine", "name"),
				resource.TestCheckTypeSetElemAttr("data.earshot_metrics.catalogue", "names.*", "latency.total_ms.p95"),
				resource.TestCheckTypeSetElemNestedAttrs("data.earshot_metrics.catalogue", "metrics.*", map[string]string{
					"name": "latency.total_ms.p95",
					"unit": "ms",
				}),
				resource.TestCheckTypeSetElemAttr("data.earshot_agents.all", "ids.*", "agent_billing"),
				resource.TestCheckTypeSetElemNestedAttrs("data.earshot_agents.all", "agents.*", map[string]string{
					"id":      "agent_billing",
					"version": "v9",
				}),
			),
		},
	))
}
