package dev.earshot;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.earshot.models.EventCall;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The webhook event envelope POSTed to /webhooks/ingest, and the body of an
 * alert notification. {@link IngestService#send} fills an absent
 * idempotencyKey, version and occurredAt.
 *
 * @param type the event type, e.g. {@code call.started}
 * @param version the event schema version, e.g. {@code 2026-01-01}
 * @param idempotencyKey the sender's key: a repeat is answered as a duplicate
 * @param occurredAt when it happened (ISO 8601)
 * @param call the call it is about
 * @param data the type's own content
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Event(
    @JsonProperty("type") String type,
    @JsonProperty("version") String version,
    @JsonProperty("idempotency_key") String idempotencyKey,
    @JsonProperty("occurred_at") String occurredAt,
    @JsonProperty("call") EventCall call,
    @JsonProperty("data") Map<String, Object> data) {
  /** Copies the data, so that an event never changes. */
  public Event {
    data = data == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(data));
  }

  /** A builder of an event. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this event's values. */
  public Builder toBuilder() {
    return new Builder().type(type).version(version).idempotencyKey(idempotencyKey).occurredAt(occurredAt).call(call).data(data);
  }

  /** Builds an {@link Event}. */
  public static final class Builder {
    private String type;
    private String version;
    private String idempotencyKey;
    private String occurredAt;
    private EventCall call;
    private Map<String, Object> data;

    private Builder() {}

    /** Sets the event type. */
    public Builder type(String type) {
      this.type = type;
      return this;
    }

    /** Sets the schema version (default {@link IngestService#EVENT_VERSION}). */
    public Builder version(String version) {
      this.version = version;
      return this;
    }

    /** Sets the idempotency key (default a random one). */
    public Builder idempotencyKey(String idempotencyKey) {
      this.idempotencyKey = idempotencyKey;
      return this;
    }

    /** Sets when it happened (default now). */
    public Builder occurredAt(String occurredAt) {
      this.occurredAt = occurredAt;
      return this;
    }

    /** Sets the call. */
    public Builder call(EventCall call) {
      this.call = call;
      return this;
    }

    /** Sets the type's content. */
    public Builder data(Map<String, Object> data) {
      this.data = data;
      return this;
    }

    /** The event. */
    public Event build() {
      return new Event(type, version, idempotencyKey, occurredAt, call, data);
    }
  }
}
