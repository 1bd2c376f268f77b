package dev.earshot;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one request may change: its Idempotency-Key and extra headers.
 *
 * @param idempotencyKey the write's Idempotency-Key, instead of a generated one (null for one)
 * @param headers headers added to the request
 */
public record RequestOptions(String idempotencyKey, Map<String, String> headers) {
  /** No changes. */
  public static final RequestOptions NONE = new RequestOptions(null, Map.of());

  /** Copies the headers, so that options never change. */
  public RequestOptions {
    headers = headers == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(headers));
  }

  /** A write with this Idempotency-Key. */
  public static RequestOptions idempotencyKey(String key) {
    return new RequestOptions(key, Map.of());
  }
}
