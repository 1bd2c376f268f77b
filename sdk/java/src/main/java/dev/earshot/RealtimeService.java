package dev.earshot;

import dev.earshot.models.LiveSnapshot;

/** The live snapshot: GET /realtime. */
public final class RealtimeService {
  private final Transport transport;

  RealtimeService(Transport transport) {
    this.transport = transport;
  }

  /** The calls in progress, the recent success rate and p95 latency. */
  public LiveSnapshot retrieve() {
    return transport.member("GET", "/realtime", "live", null, LiveSnapshot.class, RequestOptions.NONE);
  }
}
