package dev.earshot;

import dev.earshot.models.WebhookSecretRotateParams;
import dev.earshot.models.WebhookSecretRotation;

/** The tenant's webhook secret: POST /webhook-secret/rotate. */
public final class WebhookSecretService {
  private final Transport transport;

  WebhookSecretService(Transport transport) {
    this.transport = transport;
  }

  /** Makes a new webhook secret; the old one keeps working for the overlap. */
  public WebhookSecretRotation rotate(WebhookSecretRotateParams params) {
    return transport.call("POST", "/webhook-secret/rotate", null, params, WebhookSecretRotation.class, RequestOptions.NONE);
  }
}
