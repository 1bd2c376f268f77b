package earshot_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	earshot "github.com/earshot/earshot-go"
)

// must fails the test on an error and answers the value.
func must[T any](t *testing.T, what string) func(T, error) T {
	return func(value T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return value
	}
}

func TestEveryResource(t *testing.T) {
	t.Run("[every-resource] each resource is called once and its answer parses into the model", func(t *testing.T) {
		tg := liveTarget(t)
		client := tg.client(t)
		ctx := timeout(t, 90*time.Second)
		agent, providerCall := unique("agent"), unique("call")
		must[*earshot.IngestResult](t, "ingest")(client.Ingest.Send(ctx, conversation(providerCall, agent)))

		var callID string
		eventually(t, 20*time.Second, func() error {
			ids, err := callsOf(ctx, client, agent)
			if err == nil {
				err = expectCount(ids, 1)
			}
			if err == nil {
				callID = ids[0]
			}
			return err
		})
		if call := must[*earshot.CallDetail](t, "calls.retrieve")(client.Calls.Retrieve(ctx, callID)); call.ID != callID {
			t.Fatalf("retrieved %s", call.ID)
		}

		outcome := must[*earshot.WriteResult](t, "outcomes.create")(client.Outcomes.Create(ctx, earshot.OutcomeCreateParams{CallID: callID, Type: "resolved", RevenueUsd: earshot.Float(12.5)}))
		outcomes := must[*earshot.ListPage[earshot.Outcome]](t, "outcomes.list")(client.Outcomes.ListPage(ctx, &earshot.OutcomeListParams{CallID: &callID}))
		if len(outcomes.Items) != 1 || outcomes.Items[0].ID != outcome.ID || *outcomes.Items[0].RevenueUsd != 12.5 {
			t.Fatalf("outcomes %+v", outcomes.Items)
		}

		incident := must[*earshot.WriteResult](t, "incidents.create")(client.Incidents.Create(ctx, earshot.IncidentCreateParams{Title: "Slow answers", Severity: earshot.IncidentSeverityHigh, AffectedAgents: &[]string{agent}}))
		must[*earshot.WriteResult](t, "incidents.update")(client.Incidents.Update(ctx, incident.ID, earshot.IncidentUpdateParams{Status: earshot.Ptr(earshot.IncidentStatusResolved), Note: earshot.String("rolled back")}))
		incidents := must[*earshot.ListPage[earshot.Incident]](t, "incidents.list")(client.Incidents.ListPage(ctx, nil))
		if len(incidents.Items) == 0 || incidents.Items[0].ID != incident.ID || incidents.Items[0].Status != string(earshot.IncidentStatusResolved) {
			t.Fatalf("incidents %+v", incidents.Items)
		}

		must[*earshot.ListPage[earshot.Alert]](t, "alerts.list")(client.Alerts.ListPage(ctx, nil))
		must[*earshot.ListPage[earshot.AlertNotification]](t, "alerts.notifications")(client.Alerts.NotificationsPage(ctx, nil))
		hook := must[*earshot.AlertWebhook](t, "alerts.webhook.set")(client.Alerts.Webhook.Set(ctx, earshot.AlertWebhookParams{URL: "https://hooks.example.com/earshot", Enabled: earshot.Bool(false)}))
		if got := must[*earshot.AlertWebhook](t, "alerts.webhook.get")(client.Alerts.Webhook.Get(ctx)); got.URL == nil || *got.URL != *hook.URL {
			t.Fatalf("webhook %+v", got)
		}

		rule := must[*earshot.WriteResult](t, "alertRules.create")(client.AlertRules.Create(ctx, earshot.AlertRuleCreateParams{
			Metric: earshot.MetricNameLatencyTotalMsP95, Comparison: earshot.ComparisonGt, Threshold: 1200, Name: earshot.String("slow"),
		}))
		must[*earshot.WriteResult](t, "alertRules.update")(client.AlertRules.Update(ctx, rule.ID, earshot.AlertRuleUpdateParams{Threshold: earshot.Float(1500)}))
		if got := must[*earshot.AlertRule](t, "alertRules.retrieve")(client.AlertRules.Retrieve(ctx, rule.ID)); got.Threshold != 1500 {
			t.Fatalf("rule %+v", got)
		}
		must[*earshot.ListPage[earshot.AlertRule]](t, "alertRules.list")(client.AlertRules.ListPage(ctx, nil))
		must[*earshot.WriteResult](t, "alertRules.delete")(client.AlertRules.Delete(ctx, rule.ID))
		if _, err := client.AlertRules.Retrieve(ctx, rule.ID); !earshot.IsNotFound(err) {
			t.Fatalf("a deleted rule answered %v", err)
		}

		deployment := must[*earshot.WriteResult](t, "deployments.create")(client.Deployments.Create(ctx, earshot.DeploymentCreateParams{Agent: agent, Version: "v2"}))
		if got := must[*earshot.Deployment](t, "deployments.retrieve")(client.Deployments.Retrieve(ctx, deployment.ID)); got.Agent != agent || got.Version != "v2" {
			t.Fatalf("deployment %+v", got)
		}
		must[*earshot.ListPage[earshot.Deployment]](t, "deployments.list")(client.Deployments.ListPage(ctx, &earshot.DeploymentListParams{Agent: &agent}))
		if impact := must[*earshot.DeploymentImpact](t, "deployments.impact")(client.Deployments.Impact(ctx, deployment.ID, &earshot.DeploymentImpactParams{WindowMinutes: earshot.Int(30)})); impact.Deployment.ID != deployment.ID {
			t.Fatalf("impact %+v", impact.Deployment)
		}

		catalogue := must[[]earshot.MetricName](t, "metrics.catalogue")(client.Metrics.Catalogue(ctx))
		if len(catalogue) < 10 || catalogue[0] == "" {
			t.Fatalf("catalogue %v", catalogue)
		}
		series := must[*earshot.MetricSeries](t, "metrics.series")(client.Metrics.Series(ctx, earshot.MetricSeriesParams{Name: earshot.MetricNameCallsTotal, Interval: earshot.Ptr(earshot.MetricIntervalN1H)}))
		if series.Name != string(earshot.MetricNameCallsTotal) || len(series.Points) == 0 {
			t.Fatalf("series %+v", series)
		}
		must[*earshot.LiveSnapshot](t, "realtime.retrieve")(client.Realtime.Retrieve(ctx))
		must[*earshot.Usage](t, "usage.retrieve")(client.Usage.Retrieve(ctx, nil))
		must[*earshot.ListPage[earshot.Invoice]](t, "invoices.list")(client.Invoices.ListPage(ctx, nil))
		must[*earshot.ListPage[earshot.AuditEntry]](t, "audit.list")(client.Audit.ListPage(ctx, nil))

		created := must[*earshot.KeyWithSecret](t, "keys.create")(client.Keys.Create(ctx, earshot.KeyCreateParams{Name: "ci", Scopes: []earshot.Scope{earshot.ScopeCallsRead}}))
		keys := must[*earshot.ListPage[earshot.APIKey]](t, "keys.list")(client.Keys.ListPage(ctx, nil))
		if len(keys.Items) < 2 {
			t.Fatalf("keys %+v", keys.Items)
		}
		must[*earshot.APIKey](t, "keys.retrieve")(client.Keys.Retrieve(ctx, created.Key.ID))
		rotated := must[*earshot.KeyWithSecret](t, "keys.rotate")(client.Keys.Rotate(ctx, created.Key.ID, earshot.KeyRotateParams{OverlapSeconds: earshot.Int(60)}))
		if rotated.Secret == created.Secret {
			t.Fatal("the rotated key kept its secret")
		}
		if revoked := must[*earshot.APIKey](t, "keys.revoke")(client.Keys.Revoke(ctx, created.Key.ID)); revoked.Status != earshot.KeyStatusRevoked {
			t.Fatalf("revoked key %+v", revoked)
		}

		line := must[*earshot.ProviderConnectionIssued](t, "providers.connect")(client.Providers.Connect(ctx, earshot.ProviderConnectionCreateParams{
			Provider: earshot.ProviderTwilio, Name: unique("line"), Credentials: &earshot.ProviderCredentials{AuthToken: earshot.String("sdk_twilio_token_0123456789")},
		}))
		if line.Secret != nil || line.Connection.Status != earshot.ProviderConnectionStatusActive || !strings.Contains(line.Connection.WebhookURL, line.Connection.ID) {
			t.Fatalf("connected %+v", line)
		}
		if got := must[*earshot.ProviderConnection](t, "providers.retrieve")(client.Providers.Retrieve(ctx, line.Connection.ID)); got.ID != line.Connection.ID || got.PreviousCredentialsValidUntil != nil {
			t.Fatalf("retrieved %+v", got)
		}
		twilio := earshot.ProviderTwilio
		lines := must[*earshot.ListPage[earshot.ProviderConnection]](t, "providers.list")(client.Providers.ListPage(ctx, &earshot.ProviderConnectionListParams{Provider: &twilio}))
		if !slices.ContainsFunc(lines.Items, func(c earshot.ProviderConnection) bool { return c.ID == line.Connection.ID }) {
			t.Fatalf("listed %+v", lines.Items)
		}
		rotatedLine := must[*earshot.ProviderConnectionIssued](t, "providers.rotate")(client.Providers.Rotate(ctx, line.Connection.ID, earshot.ProviderCredentialRotateParams{
			Credentials: &earshot.ProviderCredentials{AuthToken: earshot.String("sdk_twilio_token_rotated_0")}, OverlapSeconds: earshot.Int(60),
		}))
		if rotatedLine.Connection.PreviousCredentialsValidUntil == nil {
			t.Fatalf("rotated %+v", rotatedLine.Connection)
		}
		if got := must[*earshot.ProviderConnection](t, "providers.disable")(client.Providers.Disable(ctx, line.Connection.ID)); got.Status != earshot.ProviderConnectionStatusDisabled {
			t.Fatalf("disabled %+v", got)
		}
		if got := must[*earshot.ProviderConnection](t, "providers.enable")(client.Providers.Enable(ctx, line.Connection.ID)); got.Status != earshot.ProviderConnectionStatusActive {
			t.Fatalf("enabled %+v", got)
		}
		if deleted := must[*earshot.ProviderConnectionDeleted](t, "providers.delete")(client.Providers.Delete(ctx, line.Connection.ID)); deleted.ID != line.Connection.ID {
			t.Fatalf("deleted %+v", deleted)
		}
		bot := must[*earshot.ProviderConnectionIssued](t, "providers.connect")(client.Providers.Connect(ctx, earshot.ProviderConnectionCreateParams{Provider: earshot.ProviderStandardWebhooks, Name: unique("bot")}))
		if bot.Secret == nil || !strings.HasPrefix(*bot.Secret, "whsec_") {
			t.Fatalf("a Standard Webhooks sender's secret: %v", bot.Secret)
		}

		rotation := must[*earshot.WebhookSecretRotation](t, "webhookSecret.rotate")(client.WebhookSecret.Rotate(ctx, earshot.WebhookSecretRotateParams{OverlapSeconds: earshot.Int(3600)}))
		if rotation.WebhookSecret == tg.webhookSecret {
			t.Fatal("the secret did not change")
		}
		rotatedSecret = rotation.WebhookSecret
		if _, err := tg.client(t, earshot.WithWebhookSecret(rotation.WebhookSecret)).Ingest.Send(ctx, conversation(unique("call"), agent)); err != nil {
			t.Fatalf("signing with the new secret: %v", err)
		}
		if health := must[*earshot.Health](t, "health.retrieve")(client.Health.Retrieve(ctx)); !health.Database.Connected {
			t.Fatalf("health %+v", health)
		}
		if tenant := must[*earshot.Tenant](t, "tenant.retrieve")(client.Tenant.Retrieve(ctx)); tenant.ID != tg.tenantID || tenant.Status != earshot.TenantStatusActive {
			t.Fatalf("tenant %+v, not %s", tenant, tg.tenantID)
		}
	})
}
