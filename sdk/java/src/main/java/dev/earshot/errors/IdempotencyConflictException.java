package dev.earshot.errors;

import dev.earshot.models.FieldError;
import java.net.http.HttpHeaders;
import java.util.List;

/** IDEMPOTENCY_CONFLICT (409): an Idempotency-Key still in flight, or reused with another request. */
public class IdempotencyConflictException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** An answer with this status, Error shape and headers. */
  public IdempotencyConflictException(int status, String code, String message, String requestId, List<FieldError> fields, HttpHeaders headers) {
    super(status, code, message, requestId, fields, headers);
  }
}
