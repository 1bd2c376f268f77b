package provider

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

func apiKeyConfig(scopes, trigger string) string {
	expires := time.Now().Add(90 * 24 * time.Hour).UTC().Truncate(time.Second).Format(time.RFC3339)
	return header + fmt.Sprintf(`
resource "earshot_api_key" "ci" {
  name             = "ci"
  scopes           = [%s]
  workspace        = "pipelines"
  ip_allowlist     = ["203.0.113.5", "10.0.0.1/8", "2001:DB8::/32"]
  expires_at       = %q
  rotation_trigger = %q
  rotation_overlap_seconds = 600
}
`, scopes, expires, trigger)
}

// secretOf remembers an attribute's value between steps.
func secretOf(into *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		*into = s.RootModule().Resources["earshot_api_key.ci"].Primary.Attributes["secret"]
		return nil
	}
}

func TestAccAPIKey(t *testing.T) {
	var id, first, rotated string
	config := apiKeyConfig(`"calls:read", "metrics:read"`, "2026-q1")
	testCase := acceptance(t,
		resource.TestStep{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("earshot_api_key.ci", "environment", "production"),
				resource.TestCheckResourceAttr("earshot_api_key.ci", "status", "active"),
				resource.TestCheckResourceAttr("earshot_api_key.ci", "scopes.#", "2"),
				resource.TestCheckTypeSetElemAttr("earshot_api_key.ci", "ip_allowlist.*", "10.0.0.1/8"),
				resource.TestCheckResourceAttrWith("earshot_api_key.ci", "secret", prefixed("ear_live_")),
				resource.TestCheckResourceAttrWith("earshot_api_key.ci", "id", func(value string) error { id = value; return nil }),
				secretOf(&first),
			),
		},
		resource.TestStep{
			ResourceName:      "earshot_api_key.ci",
			ImportState:       true,
			ImportStateVerify: true,
			// The API shows neither the secret nor the rotation settings; it spells times and networks its own way.
			ImportStateVerifyIgnore: []string{"secret", "rotation_trigger", "rotation_overlap_seconds", "ip_allowlist", "expires_at"},
			ImportStateCheck: func(states []*terraform.InstanceState) error {
				got := states[0].Attributes
				if got["ip_allowlist.#"] != "3" || got["secret"] != "" || !strings.HasSuffix(got["expires_at"], ".000Z") {
					return fmt.Errorf("imported %v", got)
				}
				return nil
			},
		},
		resource.TestStep{
			// A new trigger rotates in place: a new secret; the key is "rotating" while the old one still works.
			Config: apiKeyConfig(`"calls:read", "metrics:read"`, "2026-q2"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_api_key.ci", plancheck.ResourceActionUpdate)},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("earshot_api_key.ci", "status", "rotating"),
				resource.TestCheckResourceAttrSet("earshot_api_key.ci", "previous_secret_valid_until"),
				secretOf(&rotated),
				func(*terraform.State) error {
					if rotated == first || !strings.HasPrefix(rotated, "ear_live_") {
						return fmt.Errorf("the rotation kept the secret or made a bad one: %q", rotated)
					}
					return nil
				},
			),
		},
		resource.TestStep{
			// Rotated outside Terraform: the next plan rotates again so that the state holds the current secret.
			PreConfig: func() {
				_, err := api(t).RotateAPIKey(background, id, 60)
				must(t, err)
			},
			Config:             apiKeyConfig(`"calls:read", "metrics:read"`, "2026-q2"),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		resource.TestStep{
			Config: apiKeyConfig(`"calls:read", "metrics:read"`, "2026-q2"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_api_key.ci", plancheck.ResourceActionUpdate)},
			},
			Check: resource.TestCheckResourceAttr("earshot_api_key.ci", "rotation_trigger", "2026-q2"),
		},
		resource.TestStep{
			// Revoked outside Terraform: the next plan creates a key again.
			PreConfig: func() {
				_, err := api(t).RevokeAPIKey(background, id)
				must(t, err)
			},
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_api_key.ci", plancheck.ResourceActionCreate)},
			},
			Check: resource.TestCheckResourceAttrWith("earshot_api_key.ci", "id", func(value string) error {
				if value == id {
					return errors.New("the revoked key was kept")
				}
				id = value
				return nil
			}),
		},
		resource.TestStep{
			// The API changes no key in place: other scopes replace it.
			Config: apiKeyConfig(`"calls:read"`, "2026-q1"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_api_key.ci", plancheck.ResourceActionDestroyBeforeCreate)},
			},
			Check: resource.TestCheckResourceAttr("earshot_api_key.ci", "scopes.#", "1"),
		},
	)
	// Destroying revokes the key.
	testCase.CheckDestroy = func(s *terraform.State) error {
		for _, state := range s.RootModule().Resources {
			if state.Type != "earshot_api_key" {
				continue
			}
			key, err := api(t).GetAPIKey(background, state.Primary.ID)
			if err != nil {
				return err
			}
			if key.Status != "revoked" {
				return fmt.Errorf("key %s is %s after destroy", key.ID, key.Status)
			}
		}
		return nil
	}
	resource.Test(t, testCase)
}

func prefixed(prefix string) func(string) error {
	return func(value string) error {
		if !strings.HasPrefix(value, prefix) {
			return fmt.Errorf("%q does not start with %q", value, prefix)
		}
		return nil
	}
}
