package dev.earshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.standardwebhooks.Webhook;
import dev.earshot.errors.WebhookVerificationException;
import java.net.http.HttpHeaders;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WebhooksTest {
  private static String newSecret() {
    byte[] key = new byte[24];
    new SecureRandom().nextBytes(key);
    return "whsec_" + Base64.getEncoder().encodeToString(key);
  }

  @Test
  @DisplayName("[webhook-verify] verify accepts what the official library and sign make, and refuses a changed body, a stale timestamp and a wrong secret")
  void verify() throws Exception {
    String secret = newSecret();
    String body = "{\"type\":\"alert.fired\",\"version\":\"2026-01-01\",\"idempotency_key\":\"alert-1\",\"occurred_at\":\"2026-01-01T00:00:00Z\",\"data\":{\"alert_id\":\"a1\"}}";
    var official = new Webhook(secret);
    long now = Instant.now().getEpochSecond();
    var signed = Map.of("webhook-id", "msg_1", "webhook-timestamp", Long.toString(now), "webhook-signature", official.sign("msg_1", now, body));
    var event = Webhooks.verify(body, signed, secret, Webhooks.DEFAULT_TOLERANCE);
    assertEquals("alert.fired", event.type());
    assertEquals("a1", event.data().get("alert_id"));

    var client = Earshot.builder().apiKey("ear_test_unused").webhookSecret(secret).build();
    var ours = client.webhooks().sign(body, "msg_2", Instant.now());
    official.verify(body, HttpHeaders.of(ours.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue()))), (k, v) -> true));
    assertEquals("alert-1", client.webhooks().verify(body, ours).idempotencyKey());

    var stale = Webhooks.sign(body, secret, "msg_3", Instant.now().minus(Duration.ofMinutes(10)));
    assertThrows(WebhookVerificationException.class, () -> Webhooks.verify(body.replace("a1", "a2"), ours, secret, Webhooks.DEFAULT_TOLERANCE), "a changed body");
    assertThrows(WebhookVerificationException.class, () -> Webhooks.verify(body, stale, secret, Webhooks.DEFAULT_TOLERANCE), "a stale timestamp");
    assertThrows(WebhookVerificationException.class, () -> Webhooks.verify(body, ours, newSecret(), Webhooks.DEFAULT_TOLERANCE), "a wrong secret");
  }
}
