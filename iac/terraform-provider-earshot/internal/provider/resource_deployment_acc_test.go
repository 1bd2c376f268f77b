package provider

import (
	"fmt"
	"testing"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

func deploymentConfig(version, description string) string {
	return header + fmt.Sprintf(`
resource "earshot_deployment" "support" {
  id               = "acc-support-release"
  agent            = "agent_support"
  version          = %q
  previous_version = "v41"
  deployed_at      = "2026-03-02T09:00:00Z"
  environment      = "production"
  description      = %q
}
`, version, description)
}

func TestAccDeployment(t *testing.T) {
	testCase := acceptance(t,
		resource.TestStep{
			Config: deploymentConfig("v42", "new greeting"),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("earshot_deployment.support", "deployed_at", "2026-03-02T09:00:00Z"),
				resource.TestCheckResourceAttrSet("earshot_deployment.support", "deployed_by"),
			),
		},
		resource.TestStep{
			ResourceName: "earshot_deployment.support", ImportState: true, ImportStateVerify: true,
			// The API answers the time with milliseconds: the same instant.
			ImportStateVerifyIgnore: []string{"deployed_at"},
		},
		resource.TestStep{
			Config: deploymentConfig("v42", "new greeting, faster ASR"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_deployment.support", plancheck.ResourceActionUpdate)},
			},
			Check: checkDeployment(t, func(d client.Deployment) bool { return *d.Description == "new greeting, faster ASR" }),
		},
		resource.TestStep{
			// Recorded again through the API with another version: the next plan writes it back.
			PreConfig: func() {
				id := "acc-support-release"
				_, err := api(t).RecordDeployment(background, client.DeploymentInput{ID: &id, Agent: "agent_support", Version: "v43"})
				must(t, err)
			},
			Config: deploymentConfig("v42", "new greeting, faster ASR"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_deployment.support", plancheck.ResourceActionUpdate)},
			},
			Check: checkDeployment(t, func(d client.Deployment) bool { return d.Version == "v42" && d.PreviousVersion != nil }),
		},
	)
	// Destroying keeps the record in Earshot (it is history), and says so in a warning.
	testCase.CheckDestroy = func(*terraform.State) error {
		_, err := api(t).GetDeployment(background, "acc-support-release")
		return err
	}
	resource.Test(t, testCase)
}

func checkDeployment(t *testing.T, ok func(client.Deployment) bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		deployment, err := api(t).GetDeployment(background, "acc-support-release")
		if err != nil {
			return err
		}
		if !ok(deployment) {
			return fmt.Errorf("the deployment in Earshot is %+v", deployment)
		}
		return nil
	}
}
