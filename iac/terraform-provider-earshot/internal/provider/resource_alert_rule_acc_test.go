package provider

import (
	"fmt"
	"testing"

	"github.com/earshot/terraform-provider-earshot/internal/client"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

func alertRuleConfig(body string) string {
	return header + fmt.Sprintf("resource \"earshot_alert_rule\" \"p95\" {\n%s\n}\n", body)
}

const p95Rule = `
  id          = "acc-p95-latency"
  name        = "p95 latency over 1.2 s"
  metric      = "latency.total_ms.p95"
  agent_id    = "agent_support"
  comparison  = "gt"
  threshold   = 1200
  description = "page the voice team"
`

func TestAccAlertRule(t *testing.T) {
	testCase := acceptance(t,
		resource.TestStep{
			Config: alertRuleConfig(p95Rule),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("earshot_alert_rule.p95", "window_ms", "300000"),
				resource.TestCheckResourceAttr("earshot_alert_rule.p95", "for_ms", "0"),
				resource.TestCheckResourceAttr("earshot_alert_rule.p95", "severity", "warning"),
				resource.TestCheckResourceAttr("earshot_alert_rule.p95", "enabled", "true"),
			),
		},
		resource.TestStep{ResourceName: "earshot_alert_rule.p95", ImportState: true, ImportStateVerify: true},
		resource.TestStep{
			// In place: the threshold and window change, the agent is cleared (PATCH agentId: null).
			Config: alertRuleConfig(`
  id          = "acc-p95-latency"
  name        = "p95 latency over 1.5 s"
  metric      = "latency.total_ms.p95"
  comparison  = "gte"
  threshold   = 1500
  window_ms   = 600000
  for_ms      = 120000
  severity    = "critical"
  description = "page the voice team"
`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_alert_rule.p95", plancheck.ResourceActionUpdate)},
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckNoResourceAttr("earshot_alert_rule.p95", "agent_id"),
				resource.TestCheckResourceAttr("earshot_alert_rule.p95", "threshold", "1500"),
				resource.TestCheckResourceAttr("earshot_alert_rule.p95", "severity", "critical"),
				checkRule(t, "acc-p95-latency", func(rule client.AlertRule) bool {
					return rule.AgentID == nil && rule.Threshold == 1500 && rule.WindowMs == 600000 && rule.Comparison == "gte"
				}),
			),
		},
		resource.TestStep{
			// Changed through the API: the next plan puts it back.
			PreConfig: func() {
				must(t, api(t).PatchAlertRule(background, "acc-p95-latency", map[string]any{"threshold": 900, "enabled": false}))
			},
			Config: alertRuleConfig(p95Rule),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_alert_rule.p95", plancheck.ResourceActionUpdate)},
			},
			Check: checkRule(t, "acc-p95-latency", func(rule client.AlertRule) bool { return rule.Threshold == 1200 && rule.Enabled }),
		},
		resource.TestStep{
			// The API's PATCH cannot clear a description: leaving it out replaces the rule.
			Config: alertRuleConfig(`
  id         = "acc-p95-latency"
  name       = "p95 latency over 1.2 s"
  metric     = "latency.total_ms.p95"
  comparison = "gt"
  threshold  = 1200
`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_alert_rule.p95", plancheck.ResourceActionDestroyBeforeCreate)},
			},
			Check: checkRule(t, "acc-p95-latency", func(rule client.AlertRule) bool { return rule.Description == nil }),
		},
		resource.TestStep{
			// Deleted through the API: the next plan creates it again.
			PreConfig: func() { must(t, api(t).DeleteAlertRule(background, "acc-p95-latency")) },
			Config: alertRuleConfig(`
  name       = "p95 latency over 1.2 s"
  metric     = "latency.total_ms.p95"
  comparison = "gt"
  threshold  = 1200
`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_alert_rule.p95", plancheck.ResourceActionCreate)},
			},
			// Without an id in the configuration, Earshot chooses one.
			Check: resource.TestCheckResourceAttrWith("earshot_alert_rule.p95", "id", func(id string) error {
				if len(id) != 36 {
					return fmt.Errorf("id %q is not a UUID", id)
				}
				return nil
			}),
		},
	)
	testCase.CheckDestroy = func(s *terraform.State) error {
		for _, state := range s.RootModule().Resources {
			if _, err := api(t).GetAlertRule(background, state.Primary.ID); !client.IsNotFound(err) {
				return fmt.Errorf("rule %s after destroy: %v", state.Primary.ID, err)
			}
		}
		return nil
	}
	resource.Test(t, testCase)
}

func checkRule(t *testing.T, id string, ok func(client.AlertRule) bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		rule, err := api(t).GetAlertRule(background, id)
		if err != nil {
			return err
		}
		if !ok(rule) {
			return fmt.Errorf("the rule in Earshot is %+v", rule)
		}
		return nil
	}
}
