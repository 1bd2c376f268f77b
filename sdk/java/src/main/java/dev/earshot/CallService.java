package dev.earshot;

import dev.earshot.models.Call;
import dev.earshot.models.CallDetail;
import dev.earshot.models.CallListParams;

/** Calls: GET /calls and GET /calls/{id}. */
public final class CallService {
  private final Transport transport;

  CallService(Transport transport) {
    this.transport = transport;
  }

  /** The calls that match params (null for all), newest first by default, page after page. */
  public PagedList<Call> list(CallListParams params) {
    return new PagedList<>(transport, "/calls", params, Call.class);
  }

  /** Every call, page after page. */
  public PagedList<Call> list() {
    return list(null);
  }

  /** One call with its turns, transcript and traces; a NotFoundException when there is none. */
  public CallDetail retrieve(String id) {
    return transport.member("GET", Transport.path("/calls/%s", id), "call", null, CallDetail.class, RequestOptions.NONE);
  }
}
