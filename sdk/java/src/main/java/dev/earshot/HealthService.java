package dev.earshot;

import dev.earshot.models.Health;

/** The service's health: GET /health. */
public final class HealthService {
  private final Transport transport;

  HealthService(Transport transport) {
    this.transport = transport;
  }

  /** Whether the service and its database are up. */
  public Health retrieve() {
    return transport.call("GET", "/health", null, null, Health.class, RequestOptions.NONE);
  }
}
