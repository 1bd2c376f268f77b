package dev.earshot;

import dev.earshot.models.Outcome;
import dev.earshot.models.OutcomeCreateParams;
import dev.earshot.models.OutcomeListParams;
import dev.earshot.models.WriteResult;

/** Call outcomes: GET and POST /outcomes. */
public final class OutcomeService {
  private final Transport transport;

  OutcomeService(Transport transport) {
    this.transport = transport;
  }

  /** The outcomes that match params (null for all). */
  public PagedList<Outcome> list(OutcomeListParams params) {
    return new PagedList<>(transport, "/outcomes", params, Outcome.class);
  }

  /** Records (upserts) an outcome of a call. */
  public WriteResult create(OutcomeCreateParams params) {
    return create(params, RequestOptions.NONE);
  }

  /** Records (upserts) an outcome of a call, with request options (an Idempotency-Key). */
  public WriteResult create(OutcomeCreateParams params, RequestOptions options) {
    return transport.call("POST", "/outcomes", null, params, WriteResult.class, options);
  }
}
