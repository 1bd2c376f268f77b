package dev.earshot;

import static dev.earshot.LiveTarget.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StreamTest {
  @Test
  @DisplayName("[stream-resume] a subscription resumes after a drop from its last position: every event once, none missed")
  void streamResume() {
    var target = LiveTarget.get();
    String agent = unique("agent");
    String providerCall = unique("call");
    var seen = new HashMap<String, Integer>();
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      try (var subscription = target.proxied(b -> {}).stream().subscribe(StreamParams.builder().agentId(agent).types(List.of("transcript.final")).build())) {
        send(target, providerCall, agent, 0, 5);
        read(subscription, agent, seen, 5);
        target.proxy("POST", "/__faults/drop-streams", null);
        send(target, providerCall, agent, 5, 10);
        read(subscription, agent, seen, 5);
        assertNotNull(subscription.position());
      }
    });
    assertEquals(10, seen.size(), seen::toString);
    seen.forEach((key, times) -> assertEquals(1, times, key));
  }

  private static void send(LiveTarget target, String providerCall, String agent, int from, int to) {
    var events = new ArrayList<Event>();
    for (int i = from; i < to; i++) {
      events.add(LiveTarget.event("transcript.final", providerCall, agent, Map.of("turn_id", "turn-" + i, "speaker", "agent", "text", "…"))
          .toBuilder().idempotencyKey(providerCall + "-" + i).build());
    }
    target.client().ingest().send(events);
  }

  private static void read(Subscription subscription, String agent, Map<String, Integer> seen, int count) {
    for (int i = 0; i < count; i++) {
      var event = subscription.next();
      assertNotNull(event.position());
      assertEquals(agent, event.event().call().agentId());
      seen.merge(event.event().idempotencyKey(), 1, Integer::sum);
    }
  }
}
