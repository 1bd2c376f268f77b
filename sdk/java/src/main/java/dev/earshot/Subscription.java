package dev.earshot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.earshot.errors.ApiException;
import dev.earshot.errors.ConnectionException;
import dev.earshot.errors.EarshotException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An open stream. {@link #next()} answers its events; after a dropped
 * connection it reconnects from the last position it saw, so nothing is
 * missed or repeated. Close it when done.
 */
public final class Subscription implements AutoCloseable {
  /** Put in a connection's inbox when it ends. */
  private static final String DROPPED = new String("dropped");

  private final Transport transport;
  private final StreamParams params;
  private volatile String position;
  private volatile boolean closed;
  private volatile Connection connection;

  Subscription(Transport transport, StreamParams params) {
    this.transport = transport;
    this.params = params;
    this.position = params.after();
    this.connection = connect();
  }

  /** The position of the last message read, for {@link StreamParams#after}. */
  public String position() {
    return position;
  }

  /**
   * Waits for the next event; null once the subscription is closed. After a
   * drop it reconnects (up to the client's maxRetries times in a row) and goes
   * on from its last position.
   */
  public synchronized StreamEvent next() {
    int failures = 0;
    while (!closed) {
      if (connection == null) {
        if (failures > transport.maxRetries()) throw new ConnectionException("earshot: the stream could not be reopened", null);
        Transport.sleep(Transport.backoff(failures, null));
        failures++;
        try {
          connection = connect();
        } catch (ApiException e) {
          if (e.status() < 500 && e.status() != 429) throw e;
        } catch (ConnectionException e) {
          // Tried again after the backoff.
        }
        continue;
      }
      String text = connection.take();
      if (text == DROPPED) {
        connection.abort();
        connection = null;
        continue;
      }
      failures = 0;
      StreamEvent event = read(text);
      if (event != null) return event;
    }
    return null;
  }

  /** Reads a message: an event is answered; the greeting or a heartbeat only moves the position. */
  private StreamEvent read(String text) {
    JsonNode message = Transport.decode(text.getBytes(StandardCharsets.UTF_8), JsonNode.class);
    String at = message.path("position").asText(null);
    if (at != null) position = at;
    if (!"event".equals(message.path("type").asText())) return null;
    JsonNode event = message.get("event");
    return new StreamEvent(at, Transport.JSON.convertValue(event, StoredEvent.class), event.toString());
  }

  private Connection connect() {
    var query = new StringJoiner("&", "?", "");
    query.setEmptyValue("");
    if (!params.types().isEmpty()) query.add("types=" + encode(String.join(",", params.types())));
    if (params.agentId() != null) query.add("agentId=" + encode(params.agentId()));
    if (params.callId() != null) query.add("callId=" + encode(params.callId()));
    if (position != null) query.add("after=" + encode(position));
    URI uri = URI.create(transport.baseUrl().replaceFirst("^http", "ws") + "/stream" + query);
    var connection = new Connection();
    try {
      connection.socket = transport.http().newWebSocketBuilder()
          .header("Authorization", "Bearer " + transport.apiKey())
          .subprotocols(StreamService.PROTOCOL)
          .buildAsync(uri, connection)
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WebSocketHandshakeException refused) {
        var response = refused.getResponse();
        Object body = response.body();
        String text = body instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(body);
        throw ApiException.of(response.statusCode(), codeOf(text), text, null, null, response.headers());
      }
      throw new ConnectionException("earshot: opening the stream: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new ConnectionException("earshot: opening the stream timed out", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EarshotException("earshot: interrupted", e);
    }
    // The server greets once it delivers to this connection: events sent after subscribe answers are on it.
    String greeting = connection.take();
    if (greeting == DROPPED || read(greeting) != null) {
      connection.abort();
      throw new ConnectionException("earshot: the stream closed before its greeting", null);
    }
    return connection;
  }

  private static String codeOf(String body) {
    try {
      return Transport.JSON.readTree(body).path("code").asText(null);
    } catch (Exception e) {
      return null;
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** Ends the subscription; a waiting {@link #next()} answers null. */
  @Override
  public void close() {
    closed = true;
    Connection current = connection;
    if (current != null) {
      current.socket.sendClose(WebSocket.NORMAL_CLOSURE, "").whenComplete((ws, error) -> current.socket.abort());
      current.inbox.add(DROPPED);
    }
  }

  /** One WebSocket connection and the whole text messages it received. */
  private static final class Connection implements WebSocket.Listener {
    private final BlockingQueue<String> inbox = new LinkedBlockingQueue<>();
    private final StringBuilder partial = new StringBuilder();
    private WebSocket socket;

    @Override
    public void onOpen(WebSocket webSocket) {
      webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        inbox.add(partial.toString());
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
      inbox.add(DROPPED);
      return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
      inbox.add(DROPPED);
    }

    String take() {
      try {
        return inbox.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EarshotException("earshot: interrupted", e);
      }
    }

    void abort() {
      if (socket != null) socket.abort();
    }
  }
}
