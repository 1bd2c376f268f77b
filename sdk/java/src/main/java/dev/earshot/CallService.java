package dev.earshot;

import dev.earshot.models.Call;
import dev.earshot.models.CallDetail;
import dev.earshot.models.CallEraseParams;
import dev.earshot.models.CallErased;
import dev.earshot.models.CallListParams;

/** Calls: GET /calls, GET /calls/{id} and DELETE /calls/{id}. */
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

  /**
   * Erases a call: its data key is destroyed, so its events' personal fields in the log can no longer be read, and
   * its rows go. The reason is kept in the audit log. Needs calls:write; a NotFoundException when there is no such call.
   */
  public CallErased erase(String id, CallEraseParams params) {
    return erase(id, params, RequestOptions.NONE);
  }

  /** Erases a call, with request options (an Idempotency-Key). */
  public CallErased erase(String id, CallEraseParams params, RequestOptions options) {
    return transport.call("DELETE", Transport.path("/calls/%s", id), params, null, CallErased.class, options);
  }
}
