package dev.earshot;

import dev.earshot.errors.EarshotException;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * How a {@link Batcher} batches; build with {@link #builder()}.
 *
 * @param maxEvents a batch is sent once this many events wait (default and at most 500)
 * @param maxDelay the waiting events are sent this long after the first of them arrived (default 1 s)
 * @param maxPending how many events may wait or be in flight before {@link Batcher#add} blocks (default 10,000)
 * @param onResult receives each batch's answer
 * @param onError receives each batch that could not be sent, after its retries
 * @param provider the sender's name in X-Earshot-Provider (default "sdk")
 */
public record BatcherOptions(
    int maxEvents,
    Duration maxDelay,
    int maxPending,
    BiConsumer<List<Event>, IngestResult> onResult,
    BiConsumer<List<Event>, EarshotException> onError,
    String provider) {
  /** Fills the defaults. */
  public BatcherOptions {
    maxEvents = maxEvents <= 0 || maxEvents > IngestService.MAX_BATCH ? IngestService.MAX_BATCH : maxEvents;
    maxDelay = maxDelay == null || maxDelay.isNegative() || maxDelay.isZero() ? Duration.ofSeconds(1) : maxDelay;
    maxPending = maxPending <= 0 ? 10_000 : maxPending;
    onResult = onResult == null ? (events, result) -> {} : onResult;
    onError = onError == null ? (events, error) -> {} : onError;
    provider = provider == null ? "sdk" : provider;
  }

  /** A builder; every setting has a default. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link BatcherOptions}. */
  public static final class Builder {
    private int maxEvents;
    private Duration maxDelay;
    private int maxPending;
    private BiConsumer<List<Event>, IngestResult> onResult;
    private BiConsumer<List<Event>, EarshotException> onError;
    private String provider;

    private Builder() {}

    /** Sends a batch once this many events wait. */
    public Builder maxEvents(int maxEvents) {
      this.maxEvents = maxEvents;
      return this;
    }

    /** Sends the waiting events this long after the first of them arrived. */
    public Builder maxDelay(Duration maxDelay) {
      this.maxDelay = maxDelay;
      return this;
    }

    /** How many events may wait or be in flight before add blocks. */
    public Builder maxPending(int maxPending) {
      this.maxPending = maxPending;
      return this;
    }

    /** Receives each batch's answer. */
    public Builder onResult(BiConsumer<List<Event>, IngestResult> onResult) {
      this.onResult = onResult;
      return this;
    }

    /** Receives each batch that could not be sent. */
    public Builder onError(BiConsumer<List<Event>, EarshotException> onError) {
      this.onError = onError;
      return this;
    }

    /** The sender's name in X-Earshot-Provider. */
    public Builder provider(String provider) {
      this.provider = provider;
      return this;
    }

    /** The options. */
    public BatcherOptions build() {
      return new BatcherOptions(maxEvents, maxDelay, maxPending, onResult, onError, provider);
    }
  }
}
