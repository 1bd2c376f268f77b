package dev.earshot.examples;

import dev.earshot.Batcher;
import dev.earshot.BatcherOptions;
import dev.earshot.Earshot;
import dev.earshot.Event;
import dev.earshot.errors.NotFoundException;
import dev.earshot.models.Call;
import dev.earshot.models.CallDetail;
import dev.earshot.models.CallListParams;
import dev.earshot.models.EventCall;
import dev.earshot.models.OutcomeCreateParams;
import dev.earshot.models.WriteResult;
import java.util.List;
import java.util.Map;

/** Sends 100 events in batches, lists the calls, gets one, records an outcome and catches a 404 as the typed exception. */
public class QuickStart {
  public static void main(String[] args) throws InterruptedException {
    Earshot client = Earshot.builder().build(); // EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET

    // 100 events: 20 calls of five events each, sent by a batcher in batches of 50.
    try (Batcher batcher = client.ingest().batcher(BatcherOptions.builder().maxEvents(50).build())) {
      for (int i = 0; i < 20; i++) {
        EventCall call = EventCall.builder().providerCallId("quickstart-" + System.currentTimeMillis() + "-" + i).agentId("support").build();
        batcher.add(Event.builder().type("call.started").call(call).build());
        batcher.add(Event.builder().type("call.answered").call(call).build());
        batcher.add(Event.builder().type("transcript.final").call(call)
            .data(Map.of("turn_id", "t1", "speaker", "customer", "text", "I need help with my bill")).build());
        batcher.add(Event.builder().type("agent.response.generated").call(call)
            .data(Map.of("turn_id", "t1", "text", "Sure, let me look.",
                "latency", Map.of("asr_ms", 110, "llm_ms", 420, "tts_ms", 95, "total_ms", 625))).build());
        batcher.add(Event.builder().type("call.ended").call(call).build());
      }
    } // close() sends what is left and waits for the answers

    // The calls appear once Earshot has projected the events.
    List<Call> calls = List.of();
    while (calls.isEmpty()) {
      calls = client.calls().list(CallListParams.builder().agentId("support").build()).stream().toList();
      if (calls.isEmpty()) Thread.sleep(500);
    }
    for (Call call : calls) System.out.println(call.id() + " " + call.status() + " " + call.startedAt());

    CallDetail call = client.calls().retrieve(calls.get(0).id());
    System.out.println("call " + call.id() + ": " + call.turns().size() + " turns");

    WriteResult outcome = client.outcomes().create(OutcomeCreateParams.builder().callId(call.id()).type("resolved").revenueUsd(49.0).build());
    System.out.println("outcome " + outcome.id());

    try {
      client.calls().retrieve("no-such-call");
    } catch (NotFoundException e) {
      System.out.println("not found: " + e.status() + " " + e.code());
    }
  }
}
