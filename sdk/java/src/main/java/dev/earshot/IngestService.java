package dev.earshot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.earshot.errors.EarshotException;
import dev.earshot.models.IngestRejected;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Signed events: POST /webhooks/ingest, and the batcher. */
public final class IngestService {
  /** The event schema version put on an envelope without one. */
  public static final String EVENT_VERSION = "2026-01-01";
  /** The most envelopes one request carries. */
  public static final int MAX_BATCH = 500;

  private final Transport transport;
  private final String webhookSecret;

  IngestService(Transport transport, String webhookSecret) {
    this.transport = transport;
    this.webhookSecret = webhookSecret;
  }

  /**
   * The X-Earshot-Signature of a body sent at a timestamp (Unix seconds): the
   * lowercase hex HMAC-SHA256 of timestamp + "." + body, keyed with the
   * secret's UTF-8 bytes.
   */
  public static String signature(String secret, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /** Sends events as provider "sdk"; see {@link #send(List, String)}. */
  public IngestResult send(List<Event> events) {
    return send(events, "sdk");
  }

  /** Sends one event. */
  public IngestResult send(Event event) {
    return send(List.of(event));
  }

  /**
   * Signs the events with the webhook secret and posts them in batches of at
   * most {@link #MAX_BATCH}, answering per envelope. Each request is signed
   * anew at each attempt, with the same body.
   */
  public IngestResult send(List<Event> events, String provider) {
    if (webhookSecret == null) throw new EarshotException("earshot: no webhook secret to sign with: call webhookSecret(...) or set EARSHOT_WEBHOOK_SECRET");
    var results = new ArrayList<EnvelopeResult>(events.size());
    for (int start = 0; start < events.size(); start += MAX_BATCH) {
      List<Event> batch = completed(events.subList(start, Math.min(start + MAX_BATCH, events.size())));
      byte[] answer = transport.send("POST", "/webhooks/ingest", null, Transport.encode(batch), RequestOptions.NONE, (request, body) -> {
        String timestamp = Long.toString(Instant.now().getEpochSecond());
        request.header("X-Earshot-Timestamp", timestamp);
        request.header("X-Earshot-Signature", signature(webhookSecret, timestamp, body));
        request.header("X-Earshot-Provider", provider);
      });
      results.addAll(resultsOf(answer, batch.size()));
    }
    return IngestResult.of(results);
  }

  /** A batcher that buffers events and sends them by size or after a delay; close it to send what it holds. */
  public Batcher batcher(BatcherOptions options) {
    return new Batcher(this, options);
  }

  private static List<Event> completed(List<Event> events) {
    String now = Instant.now().toString();
    var out = new ArrayList<Event>(events.size());
    for (Event e : events) {
      out.add(new Event(
          e.type(),
          e.version() != null ? e.version() : EVENT_VERSION,
          e.idempotencyKey() != null ? e.idempotencyKey() : UUID.randomUUID().toString(),
          e.occurredAt() != null ? e.occurredAt() : now,
          e.call(),
          e.data() != null ? e.data() : new LinkedHashMap<>()));
    }
    return out;
  }

  private static List<EnvelopeResult> resultsOf(byte[] answer, int sent) {
    JsonNode results = Transport.decode(answer, JsonNode.class).path("results");
    if (!results.isArray() || results.size() != sent) {
      throw new EarshotException("earshot: the ingest answer has " + results.size() + " results for " + sent + " envelopes");
    }
    var out = new ArrayList<EnvelopeResult>(sent);
    for (JsonNode result : results) {
      if (result.path("ok").asBoolean()) {
        boolean duplicate = result.path("duplicate").asBoolean();
        out.add(new EnvelopeResult(duplicate ? EnvelopeResult.Status.DUPLICATE : EnvelopeResult.Status.ACCEPTED, result.path("id").asText(), null));
      } else {
        IngestRejected rejected = Transport.JSON.convertValue(result, IngestRejected.class);
        var status = rejected.deadLetterId() != null ? EnvelopeResult.Status.DEAD_LETTERED : EnvelopeResult.Status.REJECTED;
        out.add(new EnvelopeResult(status, null, rejected));
      }
    }
    return out;
  }
}
