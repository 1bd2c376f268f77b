package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

func rotationConfig(trigger string) string {
	return header + fmt.Sprintf("resource \"earshot_webhook_secret_rotation\" \"now\" {\n  rotation_trigger = %q\n  overlap_seconds = 3600\n}\n", trigger)
}

// isCurrentRotation checks that Earshot's latest rotation is the one in the state.
func isCurrentRotation(t *testing.T) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		status, err := api(t).GetWebhookSecretStatus(background)
		if err != nil {
			return err
		}
		id := s.RootModule().Resources["earshot_webhook_secret_rotation.now"].Primary.ID
		if status.PreviousValidUntil == nil || *status.PreviousValidUntil != id {
			return fmt.Errorf("Earshot's latest rotation is %v, the state's %s", status.PreviousValidUntil, id)
		}
		return nil
	}
}

func TestAccWebhookSecretRotation(t *testing.T) {
	var first string
	resource.Test(t, acceptance(t,
		resource.TestStep{
			Config: rotationConfig("2026-q1"),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrWith("earshot_webhook_secret_rotation.now", "webhook_secret", prefixed("whsec_")),
				resource.TestCheckResourceAttrWith("earshot_webhook_secret_rotation.now", "webhook_secret", func(v string) error { first = v; return nil }),
				isCurrentRotation(t),
			),
		},
		resource.TestStep{
			ResourceName: "earshot_webhook_secret_rotation.now", ImportState: true, ImportStateVerify: true,
			// A secret is shown once and the trigger lives in the configuration only.
			ImportStateVerifyIgnore: []string{"webhook_secret", "rotation_trigger", "overlap_seconds"},
		},
		resource.TestStep{
			Config: rotationConfig("2026-q2"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_webhook_secret_rotation.now", plancheck.ResourceActionDestroyBeforeCreate)},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrWith("earshot_webhook_secret_rotation.now", "webhook_secret", func(v string) error {
					if v == first {
						return fmt.Errorf("a new trigger kept the secret")
					}
					return nil
				}),
				isCurrentRotation(t),
			),
		},
		resource.TestStep{
			// Rotated through the API: the secret in the state no longer signs, and the next plan rotates again.
			PreConfig: func() {
				_, err := api(t).RotateWebhookSecret(background, 60)
				must(t, err)
			},
			Config: rotationConfig("2026-q2"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_webhook_secret_rotation.now", plancheck.ResourceActionCreate)},
			},
			Check: isCurrentRotation(t),
		},
	))
}
