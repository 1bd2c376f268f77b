package dev.earshot;

/** The tenant's events as they are appended: WebSocket /api/v1/stream. */
public final class StreamService {
  /** The WebSocket subprotocol the stream speaks. */
  public static final String PROTOCOL = "earshot.v1";

  private final Transport transport;

  StreamService(Transport transport) {
    this.transport = transport;
  }

  /**
   * Opens the stream, and answers once the server delivers to it; an
   * ApiException when the server refuses it (a bad key, a bad filter).
   */
  public Subscription subscribe(StreamParams params) {
    return new Subscription(transport, params == null ? StreamParams.builder().build() : params);
  }
}
