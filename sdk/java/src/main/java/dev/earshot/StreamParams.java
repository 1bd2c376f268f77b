package dev.earshot;

import java.util.List;

/**
 * What a subscription keeps; build with {@link #builder()}, every filter optional.
 *
 * @param types only these event types
 * @param agentId one agent's events
 * @param callId one call's events (the API's call id or the provider's)
 * @param after resume after this position, which a previous subscription saw
 */
public record StreamParams(List<String> types, String agentId, String callId, String after) {
  /** Copies the types, so that params never change. */
  public StreamParams {
    types = types == null ? List.of() : List.copyOf(types);
  }

  /** A builder of stream params. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link StreamParams}. */
  public static final class Builder {
    private List<String> types;
    private String agentId;
    private String callId;
    private String after;

    private Builder() {}

    /** Keeps only these event types. */
    public Builder types(List<String> types) {
      this.types = types;
      return this;
    }

    /** Keeps one agent's events. */
    public Builder agentId(String agentId) {
      this.agentId = agentId;
      return this;
    }

    /** Keeps one call's events. */
    public Builder callId(String callId) {
      this.callId = callId;
      return this;
    }

    /** Resumes after a position. */
    public Builder after(String after) {
      this.after = after;
      return this;
    }

    /** The params. */
    public StreamParams build() {
      return new StreamParams(types, agentId, callId, after);
    }
  }
}
