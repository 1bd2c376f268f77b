package dev.earshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.earshot.errors.ApiException;
import dev.earshot.errors.ConnectionException;
import dev.earshot.errors.EarshotException;
import dev.earshot.errors.RequestTimeoutException;
import dev.earshot.models.FieldError;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiConsumer;

/**
 * Sends requests: authentication, JSON, retries with jittered backoff, one
 * Idempotency-Key per write, and the typed exception for a non-2xx answer.
 */
final class Transport {
  static final ObjectMapper JSON = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

  private final String apiKey;
  private final String baseUrl;
  private final Duration timeout;
  private final int maxRetries;
  private final HttpClient http;

  Transport(String apiKey, String baseUrl, Duration timeout, int maxRetries, HttpClient http) {
    this.apiKey = apiKey;
    this.baseUrl = baseUrl;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    this.http = http;
  }

  String baseUrl() {
    return baseUrl;
  }

  String apiKey() {
    return apiKey;
  }

  int maxRetries() {
    return maxRetries;
  }

  HttpClient http() {
    return http;
  }

  /** Sends a request and decodes its whole answer as a T. */
  <T> T call(String method, String path, Object params, Object body, Class<T> type, RequestOptions options) {
    return decode(send(method, path, params, encode(body), options, null), type);
  }

  /** Sends a request and decodes one member of its answer ({@code {"ok": true, "call": {...}}}) as a T. */
  <T> T member(String method, String path, String name, Object body, Class<T> type, RequestOptions options) {
    JsonNode answer = decode(send(method, path, null, encode(body), options, null), JsonNode.class);
    return JSON.convertValue(answer.get(name), type);
  }

  static byte[] encode(Object body) {
    if (body == null) return null;
    try {
      return JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new EarshotException("earshot: encoding a request body: " + e.getMessage(), e);
    }
  }

  static <T> T decode(byte[] answer, Class<T> type) {
    try {
      return JSON.readValue(answer, type);
    } catch (IOException e) {
      throw new EarshotException("earshot: decoding an answer: " + e.getMessage(), e);
    }
  }

  /**
   * Makes the attempts: the first, then a retry after each connection error,
   * timeout, 408, 409 in flight, 429 or 5xx, up to maxRetries. The signer sets
   * the headers that depend on the moment of each attempt.
   */
  byte[] send(String method, String path, Object params, byte[] body, RequestOptions options, BiConsumer<HttpRequest.Builder, byte[]> signer) {
    RequestOptions opts = options == null ? RequestOptions.NONE : options;
    String key = opts.idempotencyKey() != null ? opts.idempotencyKey() : method.equals("GET") ? null : UUID.randomUUID().toString();
    URI uri = URI.create(baseUrl + path + queryOf(params));
    for (int attempt = 0; ; attempt++) {
      try {
        return attempt(method, uri, body, key, opts, signer);
      } catch (EarshotException e) {
        if (attempt >= maxRetries || !retryable(e)) throw e;
        sleep(backoff(attempt, e));
      }
    }
  }

  private byte[] attempt(String method, URI uri, byte[] body, String key, RequestOptions options, BiConsumer<HttpRequest.Builder, byte[]> signer) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri)
        .timeout(timeout)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
        .header("Authorization", "Bearer " + apiKey)
        .header("Accept", "application/json")
        .header("User-Agent", "earshot-java/" + Earshot.VERSION);
    if (body != null) request.header("Content-Type", "application/json");
    if (key != null) request.header("Idempotency-Key", key);
    options.headers().forEach(request::header);
    if (signer != null) signer.accept(request, body);
    HttpResponse<byte[]> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpTimeoutException e) {
      throw new RequestTimeoutException("earshot: " + method + " " + uri.getPath() + " timed out after " + timeout, e);
    } catch (IOException e) {
      throw new ConnectionException("earshot: " + method + " " + uri.getPath() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EarshotException("earshot: interrupted", e);
    }
    if (response.statusCode() >= 200 && response.statusCode() < 300) return response.body();
    throw errorOf(response);
  }

  static ApiException errorOf(HttpResponse<byte[]> response) {
    String message = new String(response.body(), StandardCharsets.UTF_8);
    String code = null;
    String requestId = response.headers().firstValue("x-request-id").orElse(null);
    List<FieldError> fields = List.of();
    try {
      JsonNode shape = JSON.readTree(response.body());
      if (shape != null && shape.isObject()) {
        message = shape.path("error").asText(message);
        code = shape.path("code").asText(null);
        requestId = shape.path("requestId").asText(requestId);
        if (shape.has("fields")) fields = List.of(JSON.convertValue(shape.get("fields"), FieldError[].class));
      }
    } catch (IOException e) {
      // Not the Error shape: the body itself is the message.
    }
    return ApiException.of(response.statusCode(), code, message, requestId, fields, response.headers());
  }

  private static boolean retryable(EarshotException e) {
    if (e instanceof ConnectionException) return true;
    if (!(e instanceof ApiException api)) return false;
    int status = api.status();
    if (status == 408 || status == 429) return true;
    if (status == 409) return "IDEMPOTENCY_CONFLICT".equals(api.code());
    return status >= 500;
  }

  /** 0.5 s doubling per retry, at most 8 s, jittered down by up to a quarter, never less than Retry-After. */
  static Duration backoff(int attempt, EarshotException e) {
    long wait = Math.min(500L << Math.min(attempt, 10), 8_000L);
    wait -= ThreadLocalRandom.current().nextLong(wait / 4 + 1);
    Duration chosen = Duration.ofMillis(wait);
    if (e instanceof ApiException api) {
      Duration asked = api.retryAfter().orElse(Duration.ZERO);
      if (asked.compareTo(chosen) > 0) chosen = asked;
    }
    return chosen;
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EarshotException("earshot: interrupted", e);
    }
  }

  /** A params record as a query string, by its JSON names. */
  static String queryOf(Object params) {
    if (params == null) return "";
    Map<String, Object> fields = JSON.convertValue(params, JSON.getTypeFactory().constructMapType(Map.class, String.class, Object.class));
    var joiner = new StringJoiner("&", "?", "");
    joiner.setEmptyValue("");
    for (var entry : fields.entrySet()) {
      if (entry.getValue() == null) continue;
      List<Object> values = entry.getValue() instanceof List<?> list ? new ArrayList<>(list) : List.of(entry.getValue());
      for (Object value : values) {
        joiner.add(URLEncoder.encode(entry.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
      }
    }
    return joiner.toString();
  }

  static String path(String format, String... ids) {
    Object[] escaped = new Object[ids.length];
    for (int i = 0; i < ids.length; i++) escaped[i] = URLEncoder.encode(ids[i], StandardCharsets.UTF_8).replace("+", "%20");
    return String.format(format, escaped);
  }
}
