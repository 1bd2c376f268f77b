package dev.earshot;

import dev.earshot.models.APIKey;
import dev.earshot.models.KeyCreateParams;
import dev.earshot.models.KeyListParams;
import dev.earshot.models.KeyRotateParams;
import dev.earshot.models.KeyWithSecret;
import java.util.Map;

/** The tenant's API keys: /keys. */
public final class KeyService {
  private final Transport transport;

  KeyService(Transport transport) {
    this.transport = transport;
  }

  /** Makes a key; its secret is in the answer, and only there. */
  public KeyWithSecret create(KeyCreateParams params) {
    return transport.call("POST", "/keys", null, params, KeyWithSecret.class, RequestOptions.NONE);
  }

  /** The keys. */
  public PagedList<APIKey> list(KeyListParams params) {
    return new PagedList<>(transport, "/keys", params, APIKey.class);
  }

  /** Every key. */
  public PagedList<APIKey> list() {
    return list(null);
  }

  /** One key's record. */
  public APIKey retrieve(String id) {
    return transport.member("GET", Transport.path("/keys/%s", id), "key", null, APIKey.class, RequestOptions.NONE);
  }

  /** Gives a key a new secret; the old one keeps working for the overlap. */
  public KeyWithSecret rotate(String id, KeyRotateParams params) {
    return transport.call("POST", Transport.path("/keys/%s/rotate", id), null, params, KeyWithSecret.class, RequestOptions.NONE);
  }

  /** Stops a key at once. */
  public APIKey revoke(String id) {
    return transport.member("POST", Transport.path("/keys/%s/revoke", id), "key", Map.of(), APIKey.class, RequestOptions.NONE);
  }
}
