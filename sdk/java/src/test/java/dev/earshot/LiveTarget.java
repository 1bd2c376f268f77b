package dev.earshot;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.earshot.models.EventCall;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The live Earshot the suite runs against: npm test starts one with a fresh
 * tenant and the fault proxy in front of it, and passes them in the environment.
 */
final class LiveTarget {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  /** The webhook secret after [every-resource] rotated it, so that the tests after it sign with the current one. */
  static volatile String rotatedSecret;

  final String apiKey;
  final String baseUrl;
  final String webhookSecret;
  final String proxyUrl;
  final String tenantId;

  private LiveTarget() {
    apiKey = env("EARSHOT_API_KEY");
    baseUrl = env("EARSHOT_BASE_URL");
    webhookSecret = rotatedSecret != null ? rotatedSecret : env("EARSHOT_WEBHOOK_SECRET");
    proxyUrl = env("EARSHOT_FAULT_PROXY_URL");
    tenantId = System.getenv("EARSHOT_TENANT_ID");
  }

  static LiveTarget get() {
    return new LiveTarget();
  }

  private static String env(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      fail("this test needs a live Earshot: run it through npm test (test/sdk/java.int.test.ts), or set EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET and EARSHOT_FAULT_PROXY_URL");
    }
    return value;
  }

  Earshot client() {
    return client(b -> {});
  }

  Earshot client(Consumer<Earshot.Builder> change) {
    var builder = Earshot.builder().apiKey(apiKey).baseUrl(baseUrl).webhookSecret(webhookSecret);
    change.accept(builder);
    return builder.build();
  }

  /** A client whose requests go through the fault proxy. */
  Earshot proxied(Consumer<Earshot.Builder> change) {
    return client(b -> {
      b.baseUrl(proxyUrl + "/api/v1");
      change.accept(b);
    });
  }

  String proxy(String method, String path, Object body) {
    try {
      var request = HttpRequest.newBuilder(URI.create(proxyUrl + path))
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
          .build();
      var response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      assertTrue(response.statusCode() < 300, () -> "fault proxy " + method + " " + path + ": " + response.statusCode() + " " + response.body());
      return response.body();
    } catch (Exception e) {
      throw new AssertionError("fault proxy " + method + " " + path, e);
    }
  }

  /** Clears the proxy, then queues answers for the next requests to method and path. */
  void inject(String method, String path, Map<String, Object> answer) {
    proxy("DELETE", "/__faults", null);
    proxy("POST", "/__faults", Map.of("method", method, "path", path, "answers", List.of(answer)));
  }

  /** What reached the proxy for method and path since it was last cleared. */
  List<Map<String, Object>> requests(String method, String path) {
    try {
      List<Map<String, Object>> log = JSON.readValue(proxy("GET", "/__faults/log", null), new TypeReference<>() {});
      return log.stream().filter(e -> method.equals(e.get("method")) && path.equals(e.get("path"))).toList();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 12);
  }

  static Event event(String type, String providerCallId, String agentId, Map<String, Object> data) {
    return Event.builder().type(type).call(EventCall.builder().providerCallId(providerCallId).agentId(agentId).build()).data(data).build();
  }

  /** A call's events: started, one agent turn, ended. */
  static List<Event> conversation(String providerCallId, String agentId) {
    var turn = new HashMap<String, Object>();
    turn.put("turn_id", "turn-1");
    turn.put("text", "How can I help?");
    turn.put("latency", Map.of("asr_ms", 120, "llm_ms", 340, "tts_ms", 90, "total_ms", 550));
    return List.of(
        event("call.started", providerCallId, agentId, null),
        event("agent.response.generated", providerCallId, agentId, turn),
        event("call.ended", providerCallId, agentId, Map.of("ended_reason", "customer-ended-call", "duration_ms", 42000)));
  }

  /** Retries check until it passes: ingest is read back once the projector has applied it. */
  static <T> T eventually(Duration within, Supplier<T> check) {
    Instant deadline = Instant.now().plus(within);
    while (true) {
      try {
        return check.get();
      } catch (AssertionError | RuntimeException e) {
        if (Instant.now().isAfter(deadline)) throw e;
      }
      Transport.sleep(Duration.ofMillis(200));
    }
  }

  /** The ids of an agent's calls. */
  static List<String> callsOf(Earshot client, String agentId) {
    var ids = new ArrayList<String>();
    for (var call : client.calls().list(dev.earshot.models.CallListParams.builder().agentId(agentId).build())) ids.add(call.id());
    return ids;
  }
}
