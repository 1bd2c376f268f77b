package dev.earshot;

import dev.earshot.models.IngestRejected;
import java.util.Optional;

/**
 * The server's answer for one envelope of an ingest request.
 *
 * @param status accepted, duplicate, dead-lettered or rejected
 * @param id the event's id, for an accepted or duplicate envelope
 * @param rejection why, for an envelope that was not accepted (with its dead letter's id)
 */
public record EnvelopeResult(Status status, String id, IngestRejected rejection) {
  /** What became of an envelope. */
  public enum Status {
    /** Accepted and appended. */
    ACCEPTED,
    /** Its idempotency key was seen before; the prior result stands. */
    DUPLICATE,
    /** Invalid: kept in the dead-letter queue, with the reason. */
    DEAD_LETTERED,
    /** Refused without a dead letter. */
    REJECTED
  }

  /** The reason it was not accepted, if it was not. */
  public Optional<IngestRejected> rejectionReason() {
    return Optional.ofNullable(rejection);
  }
}
