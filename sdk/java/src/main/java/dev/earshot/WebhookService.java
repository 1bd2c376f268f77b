package dev.earshot;

import java.time.Instant;
import java.util.Map;

/** Verifies alert notifications with the client's webhook secret. */
public final class WebhookService {
  private final String secret;

  WebhookService(String secret) {
    this.secret = secret;
  }

  /** Checks a notification (see {@link Webhooks#verify}) with the client's secret and answers its event. */
  public Event verify(String rawBody, Map<String, ?> headers) {
    return Webhooks.verify(rawBody, headers, secret, Webhooks.DEFAULT_TOLERANCE);
  }

  /** The Standard Webhooks headers of a body, signed with the client's secret, for tests. */
  public Map<String, String> sign(String body, String id, Instant timestamp) {
    return Webhooks.sign(body, secret, id, timestamp);
  }
}
