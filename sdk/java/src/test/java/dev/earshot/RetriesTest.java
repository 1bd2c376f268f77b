package dev.earshot;

import static dev.earshot.LiveTarget.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.earshot.errors.NotFoundException;
import dev.earshot.errors.ValidationException;
import dev.earshot.models.CallListParams;
import dev.earshot.models.OutcomeCreateParams;
import dev.earshot.models.OutcomeListParams;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RetriesTest {
  @Test
  @DisplayName("[retry-5xx] a 503 then a 200 succeeds after one retry")
  void retry5xx() {
    var target = LiveTarget.get();
    target.inject("GET", "/api/v1/calls", Map.of("status", 503));
    assertNotNull(target.proxied(b -> {}).calls().list().firstPage());
    var sent = target.requests("GET", "/api/v1/calls");
    assertEquals(2, sent.size());
    assertEquals(503, sent.get(0).get("status"));
    assertEquals(200, sent.get(1).get("status"));
  }

  @Test
  @DisplayName("[retry-429] a 429 with Retry-After: 1 is waited out, then retried")
  void retry429() {
    var target = LiveTarget.get();
    target.inject("GET", "/api/v1/calls", Map.of("status", 429, "retryAfter", 1));
    Instant started = Instant.now();
    target.proxied(b -> {}).calls().list().firstPage();
    Duration waited = Duration.between(started, Instant.now());
    assertTrue(waited.compareTo(Duration.ofSeconds(1)) >= 0, waited::toString);
    assertEquals(2, target.requests("GET", "/api/v1/calls").size());
  }

  @Test
  @DisplayName("[idempotent-retry] a write applied before a lost answer is retried with the same Idempotency-Key and happens once")
  void idempotentRetry() {
    var target = LiveTarget.get();
    String callId = unique("call");
    target.inject("POST", "/api/v1/outcomes", Map.of("status", 503, "afterForwarding", true));
    var created = target.proxied(b -> {}).outcomes().create(OutcomeCreateParams.builder().callId(callId).type("resolved").build());
    var sent = target.requests("POST", "/api/v1/outcomes");
    assertEquals(2, sent.size());
    assertNotNull(sent.get(0).get("idempotencyKey"));
    assertEquals(sent.get(0).get("idempotencyKey"), sent.get(1).get("idempotencyKey"));
    var outcomes = target.client().outcomes().list(OutcomeListParams.builder().callId(callId).build()).firstPage().items();
    assertEquals(1, outcomes.size());
    assertEquals(created.id(), outcomes.get(0).id());
  }

  @Test
  @DisplayName("[no-retry-4xx] a 404 and a 400 are answered at once, not retried")
  void noRetry4xx() {
    var target = LiveTarget.get();
    target.proxy("DELETE", "/__faults", null);
    var client = target.proxied(b -> {});
    assertThrows(NotFoundException.class, () -> client.calls().retrieve("no-such-call"));
    assertThrows(ValidationException.class, () -> client.calls().list(CallListParams.builder().limit(100000).build()).firstPage());
    assertEquals(1, target.requests("GET", "/api/v1/calls/no-such-call").size());
    assertEquals(1, target.requests("GET", "/api/v1/calls").size());
  }
}
