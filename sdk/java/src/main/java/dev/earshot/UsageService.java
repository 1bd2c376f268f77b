package dev.earshot;

import dev.earshot.models.Usage;
import dev.earshot.models.UsageParams;

/** Usage meters: GET /usage. */
public final class UsageService {
  private final Transport transport;

  UsageService(Transport transport) {
    this.transport = transport;
  }

  /** The usage per day and the current billing period's meters. */
  public Usage retrieve(UsageParams params) {
    return transport.call("GET", "/usage", params, null, Usage.class, RequestOptions.NONE);
  }
}
