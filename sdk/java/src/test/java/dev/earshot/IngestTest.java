package dev.earshot;

import static dev.earshot.LiveTarget.event;
import static dev.earshot.LiveTarget.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.earshot.errors.EarshotException;
import dev.earshot.errors.NotFoundException;
import dev.earshot.models.CallDetail;
import dev.earshot.models.CallEraseParams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class IngestTest {
  @Test
  @DisplayName("[ingest-then-read] a call's events are answered per envelope and read back with its turn")
  void ingestThenRead() {
    var target = LiveTarget.get();
    var client = target.client();
    String agent = unique("agent");
    String providerCall = unique("call");
    var result = client.ingest().send(LiveTarget.conversation(providerCall, agent));
    assertEquals(3, result.accepted());
    assertEquals(3, result.results().size());
    List<String> ids = LiveTarget.eventually(Duration.ofSeconds(20), () -> {
      var found = LiveTarget.callsOf(client, agent);
      assertEquals(1, found.size());
      return found;
    });
    CallDetail call = LiveTarget.eventually(Duration.ofSeconds(20), () -> {
      var detail = client.calls().retrieve(ids.get(0));
      assertEquals(1, detail.turns().size());
      assertNotNull(detail.endedAt());
      return detail;
    });
    assertEquals(providerCall, call.providerCallId());
    assertEquals(agent, call.agentId());
    assertEquals(550, call.turns().get(0).latency().totalMs());
  }

  @Test
  @DisplayName("erasing a call with a reason destroys its key and rows, and it reads as not found")
  void erase() {
    var client = LiveTarget.get().client();
    String agent = unique("agent_erase");
    client.ingest().send(LiveTarget.conversation(unique("erase"), agent));
    String id = LiveTarget.eventually(Duration.ofSeconds(20), () -> {
      var found = LiveTarget.callsOf(client, agent);
      assertEquals(1, found.size());
      return found.get(0);
    });
    var erased = client.calls().erase(id, CallEraseParams.builder().reason("the caller asked to be forgotten").build());
    assertEquals(id, erased.id());
    assertFalse(erased.alreadyErased());
    assertTrue(erased.rowsDeleted() > 0);
    assertThrows(NotFoundException.class, () -> client.calls().retrieve(id));
    var neverWas = CallEraseParams.builder().reason("never was").build();
    assertThrows(NotFoundException.class, () -> client.calls().erase("00000000-0000-4000-8000-000000000000", neverWas));
  }

  @Test
  @DisplayName("[ingest-batches] 1,200 events go out as 3 signed requests and answer in order; a resend is a duplicate, an invalid one a dead letter")
  void batches() {
    var target = LiveTarget.get();
    var client = target.proxied(b -> {});
    target.proxy("DELETE", "/__faults", null);
    String agent = unique("agent");
    String providerCall = unique("call");
    var events = new ArrayList<Event>();
    for (int i = 0; i < 1200; i++) {
      events.add(event("transcript.final", providerCall, agent, Map.of("turn_id", "turn-" + i, "speaker", "customer", "text", "hello"))
          .toBuilder().idempotencyKey(providerCall + "-" + i).build());
    }
    var result = client.ingest().send(events);
    assertEquals(3, target.requests("POST", "/api/v1/webhooks/ingest").size());
    assertEquals(1200, result.accepted());
    assertEquals(1200, result.results().size());

    var again = client.ingest().send(List.of(events.get(0), events.get(1199)));
    assertEquals(2, again.duplicates());
    assertEquals(result.results().get(0).id(), again.results().get(0).id());
    assertEquals(result.results().get(1199).id(), again.results().get(1).id());

    var mixed = client.ingest().send(List.of(
        event("call.transferred", providerCall, agent, Map.of("reason", "no target")),
        event("call.started", unique("call"), agent, null)));
    var dead = mixed.results().get(0);
    assertEquals(1, mixed.deadLettered());
    assertEquals(1, mixed.accepted());
    assertEquals(EnvelopeResult.Status.DEAD_LETTERED, dead.status());
    assertNotNull(dead.rejection().deadLetterId());
    assertTrue(!dead.rejection().error().isEmpty());
  }

  @Test
  @DisplayName("[batcher-loses-nothing] 5,000 events from concurrent producers under back-pressure are each accepted once")
  void batcherLosesNothing() throws Exception {
    var target = LiveTarget.get();
    var client = target.client();
    String agent = unique("agent");
    String providerCall = unique("call");
    var answered = new ConcurrentHashMap<String, EnvelopeResult.Status>();
    var failures = new CopyOnWriteArrayList<String>();
    var options = BatcherOptions.builder()
        .maxEvents(250)
        .maxDelay(Duration.ofMillis(50))
        .maxPending(600)
        .onResult((events, result) -> {
          for (int i = 0; i < events.size(); i++) {
            if (answered.put(events.get(i).idempotencyKey(), result.results().get(i).status()) != null) failures.add(events.get(i).idempotencyKey() + " answered twice");
          }
        })
        .onError((events, error) -> failures.add(error.getMessage()))
        .build();
    int producers = 5;
    int each = 1000;
    Batcher batcher = client.ingest().batcher(options);
    ExecutorService pool = Executors.newFixedThreadPool(producers);
    try (batcher) {
      var running = new ArrayList<Future<?>>();
      for (int p = 0; p < producers; p++) {
        int producer = p;
        running.add(pool.submit(() -> {
          for (int i = 0; i < each; i++) {
            batcher.add(event("transcript.partial", providerCall, agent, Map.of("turn_id", "turn-1", "speaker", "agent", "text", "…"))
                .toBuilder().idempotencyKey(providerCall + "-" + producer + "-" + i).build());
          }
        }));
      }
      for (var future : running) future.get();
    } finally {
      pool.shutdown();
    }
    assertThrows(IllegalStateException.class, () -> batcher.add(Event.builder().type("call.started").build()));
    assertEquals(List.of(), failures);
    assertEquals(producers * each, answered.size());
    assertTrue(answered.values().stream().allMatch(s -> s == EnvelopeResult.Status.ACCEPTED), answered.values()::toString);
  }

  @Test
  @DisplayName("a batcher that cannot reach the server reports its events on close")
  void batcherReportsFailures() {
    var client = Earshot.builder().apiKey("ear_test_unused").baseUrl("http://127.0.0.1:1").webhookSecret("whsec_x").maxRetries(0).build();
    var reported = new CopyOnWriteArrayList<Event>();
    var batcher = client.ingest().batcher(BatcherOptions.builder().maxDelay(Duration.ofHours(1)).onError((events, error) -> reported.addAll(events)).build());
    batcher.add(Event.builder().type("call.started").build());
    assertThrows(EarshotException.class, batcher::close);
    assertEquals(1, reported.size());
  }
}
