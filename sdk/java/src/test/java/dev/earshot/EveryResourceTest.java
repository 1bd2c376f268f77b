package dev.earshot;

import static dev.earshot.LiveTarget.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.earshot.errors.NotFoundException;
import dev.earshot.models.AlertRuleCreateParams;
import dev.earshot.models.AlertRuleUpdateParams;
import dev.earshot.models.AlertWebhookParams;
import dev.earshot.models.Comparison;
import dev.earshot.models.DeploymentCreateParams;
import dev.earshot.models.DeploymentImpactParams;
import dev.earshot.models.DeploymentListParams;
import dev.earshot.models.IncidentCreateParams;
import dev.earshot.models.IncidentSeverity;
import dev.earshot.models.IncidentStatus;
import dev.earshot.models.IncidentUpdateParams;
import dev.earshot.models.KeyCreateParams;
import dev.earshot.models.KeyRotateParams;
import dev.earshot.models.KeyStatus;
import dev.earshot.models.MetricInterval;
import dev.earshot.models.MetricName;
import dev.earshot.models.MetricSeriesParams;
import dev.earshot.models.OutcomeCreateParams;
import dev.earshot.models.OutcomeListParams;
import dev.earshot.models.Provider;
import dev.earshot.models.ProviderConnectionCreateParams;
import dev.earshot.models.ProviderConnectionListParams;
import dev.earshot.models.ProviderConnectionStatus;
import dev.earshot.models.ProviderCredentialRotateParams;
import dev.earshot.models.ProviderCredentials;
import dev.earshot.models.Scope;
import dev.earshot.models.TenantStatus;
import dev.earshot.models.WebhookSecretRotateParams;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EveryResourceTest {
  @Test
  @DisplayName("[every-resource] each resource is called once and its answer parses into the model")
  void everyResource() {
    var target = LiveTarget.get();
    var client = target.client();
    String agent = unique("agent");
    client.ingest().send(LiveTarget.conversation(unique("call"), agent));
    String callId = LiveTarget.eventually(Duration.ofSeconds(20), () -> {
      var ids = LiveTarget.callsOf(client, agent);
      assertEquals(1, ids.size());
      return ids.get(0);
    });
    assertEquals(callId, client.calls().retrieve(callId).id());

    var outcome = client.outcomes().create(OutcomeCreateParams.builder().callId(callId).type("resolved").revenueUsd(12.5).build());
    var outcomes = client.outcomes().list(OutcomeListParams.builder().callId(callId).build()).firstPage().items();
    assertEquals(1, outcomes.size());
    assertEquals(outcome.id(), outcomes.get(0).id());
    assertEquals(12.5, outcomes.get(0).revenueUsd());

    var incident = client.incidents().create(IncidentCreateParams.builder().title("Slow answers").severity(IncidentSeverity.HIGH).affectedAgents(List.of(agent)).build());
    client.incidents().update(incident.id(), IncidentUpdateParams.builder().status(IncidentStatus.RESOLVED).note("rolled back").build());
    var incidents = client.incidents().list(null).firstPage().items();
    assertEquals(incident.id(), incidents.get(0).id());
    assertEquals("resolved", incidents.get(0).status());

    assertNotNull(client.alerts().list(null).firstPage());
    assertNotNull(client.alerts().notifications(null).firstPage());
    var hook = client.alerts().webhook().set(AlertWebhookParams.builder().url("https://hooks.example.com/earshot").enabled(false).build());
    assertEquals(hook.url(), client.alerts().webhook().get().url());

    var rule = client.alertRules().create(AlertRuleCreateParams.builder().metric(MetricName.LATENCY_TOTAL_MS_P95).comparison(Comparison.GT).threshold(1200.0).name("slow").build());
    client.alertRules().update(rule.id(), AlertRuleUpdateParams.builder().threshold(1500.0).build());
    assertEquals(1500.0, client.alertRules().retrieve(rule.id()).threshold());
    assertNotNull(client.alertRules().list().firstPage());
    client.alertRules().delete(rule.id());
    assertThrows(NotFoundException.class, () -> client.alertRules().retrieve(rule.id()));

    var deployment = client.deployments().create(DeploymentCreateParams.builder().agent(agent).version("v2").build());
    var found = client.deployments().retrieve(deployment.id());
    assertEquals(agent, found.agent());
    assertEquals("v2", found.version());
    assertNotNull(client.deployments().list(DeploymentListParams.builder().agent(agent).build()).firstPage());
    assertEquals(deployment.id(), client.deployments().impact(deployment.id(), DeploymentImpactParams.builder().windowMinutes(30).build()).deployment().id());

    var catalogue = client.metrics().catalogue();
    assertTrue(catalogue.size() >= 10);
    var series = client.metrics().series(MetricSeriesParams.builder().name(MetricName.CALLS_TOTAL).interval(MetricInterval._1H).build());
    assertEquals("calls.total", series.name());
    assertFalse(series.points().isEmpty());
    assertNotNull(client.realtime().retrieve().concurrentCalls());
    assertNotNull(client.usage().retrieve(null).period());
    assertNotNull(client.invoices().list(null).firstPage());
    assertNotNull(client.audit().list(null).firstPage());

    var created = client.keys().create(KeyCreateParams.builder().name("ci").scopes(List.of(Scope.CALLS_READ)).build());
    assertTrue(client.keys().list().firstPage().items().size() >= 2);
    assertEquals(created.key().id(), client.keys().retrieve(created.key().id()).id());
    var rotated = client.keys().rotate(created.key().id(), KeyRotateParams.builder().overlapSeconds(60).build());
    assertNotEquals(created.secret(), rotated.secret());
    assertEquals(KeyStatus.REVOKED, client.keys().revoke(created.key().id()).status());

    var line = client.providers().connect(ProviderConnectionCreateParams.builder()
        .provider(Provider.TWILIO).name(unique("line")).credentials(ProviderCredentials.builder().authToken("sdk_twilio_token_0123456789").build()).build());
    assertNull(line.secret());
    assertEquals(ProviderConnectionStatus.ACTIVE, line.connection().status());
    assertTrue(line.connection().webhookUrl().contains(line.connection().id()));
    assertNull(client.providers().retrieve(line.connection().id()).previousCredentialsValidUntil());
    var lines = client.providers().list(ProviderConnectionListParams.builder().provider(Provider.TWILIO).build()).stream().map(c -> c.id()).toList();
    assertTrue(lines.contains(line.connection().id()));
    var rotatedLine = client.providers().rotate(line.connection().id(), ProviderCredentialRotateParams.builder()
        .credentials(ProviderCredentials.builder().authToken("sdk_twilio_token_rotated_0").build()).overlapSeconds(60).build());
    assertNotNull(rotatedLine.connection().previousCredentialsValidUntil());
    assertEquals(ProviderConnectionStatus.DISABLED, client.providers().disable(line.connection().id()).status());
    assertEquals(ProviderConnectionStatus.ACTIVE, client.providers().enable(line.connection().id()).status());
    assertEquals(line.connection().id(), client.providers().delete(line.connection().id()).id());
    var bot = client.providers().connect(ProviderConnectionCreateParams.builder().provider(Provider.STANDARD_WEBHOOKS).name(unique("bot")).build());
    assertTrue(bot.secret().startsWith("whsec_"));

    var rotation = client.webhookSecret().rotate(WebhookSecretRotateParams.builder().overlapSeconds(3600).build());
    assertNotEquals(target.webhookSecret, rotation.webhookSecret());
    LiveTarget.rotatedSecret = rotation.webhookSecret();
    target.client(b -> b.webhookSecret(rotation.webhookSecret())).ingest().send(LiveTarget.conversation(unique("call"), agent));
    assertTrue(client.health().retrieve().database().connected());
    var tenant = client.tenant().retrieve();
    assertEquals(target.tenantId, tenant.id());
    assertEquals(TenantStatus.ACTIVE, tenant.status());
  }
}
