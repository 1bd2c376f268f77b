package provider

import (
	"errors"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

func alertWebhookConfig(url string, enabled bool) string {
	return header + fmt.Sprintf("resource \"earshot_alert_webhook\" \"hook\" {\n  url = %q\n  enabled = %t\n}\n", url, enabled)
}

func TestAccAlertWebhook(t *testing.T) {
	testCase := acceptance(t,
		resource.TestStep{
			Config: alertWebhookConfig("https://hooks.example.com/earshot", true),
			Check:  resource.TestCheckResourceAttr("earshot_alert_webhook.hook", "id", "alert-webhook"),
		},
		resource.TestStep{ResourceName: "earshot_alert_webhook.hook", ImportState: true, ImportStateId: "alert-webhook", ImportStateVerify: true},
		resource.TestStep{
			Config: alertWebhookConfig("https://hooks.example.com/earshot/v2", false),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_alert_webhook.hook", plancheck.ResourceActionUpdate)},
			},
			Check: resource.TestCheckResourceAttr("earshot_alert_webhook.hook", "enabled", "false"),
		},
		resource.TestStep{
			PreConfig: func() {
				_, err := api(t).PutAlertWebhook(background, "https://elsewhere.example.com/hook", true)
				must(t, err)
			},
			Config:             alertWebhookConfig("https://hooks.example.com/earshot/v2", false),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		resource.TestStep{
			// Removed through the API: the next plan sets it again.
			PreConfig: func() { must(t, api(t).DeleteAlertWebhook(background)) },
			Config:    alertWebhookConfig("https://hooks.example.com/earshot/v2", false),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("earshot_alert_webhook.hook", plancheck.ResourceActionCreate)},
			},
		},
	)
	testCase.CheckDestroy = func(*terraform.State) error {
		hook, err := api(t).GetAlertWebhook(background)
		if err != nil {
			return err
		}
		if hook.URL != nil {
			return errors.New("the webhook is still set after destroy: " + *hook.URL)
		}
		return nil
	}
	resource.Test(t, testCase)
}
