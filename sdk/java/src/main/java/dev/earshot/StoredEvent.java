package dev.earshot;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.earshot.models.EventCall;
import java.util.Map;

/**
 * An event as Earshot keeps it, as the stream sends it: the envelope and its receipt.
 *
 * @param type the event type
 * @param version the event schema version
 * @param idempotencyKey the sender's key
 * @param occurredAt when it happened
 * @param call the call it is about
 * @param data the type's own content
 * @param tenant the tenant's id
 * @param provider who sent it
 * @param receivedAt when Earshot accepted it
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StoredEvent(
    @JsonProperty("type") String type,
    @JsonProperty("version") String version,
    @JsonProperty("idempotency_key") String idempotencyKey,
    @JsonProperty("occurred_at") String occurredAt,
    @JsonProperty("call") EventCall call,
    @JsonProperty("data") Map<String, Object> data,
    @JsonProperty("tenant") String tenant,
    @JsonProperty("provider") String provider,
    @JsonProperty("received_at") String receivedAt) {}
