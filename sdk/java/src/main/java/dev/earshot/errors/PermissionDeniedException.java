package dev.earshot.errors;

import dev.earshot.models.FieldError;
import java.net.http.HttpHeaders;
import java.util.List;

/** FORBIDDEN (403): the key lacks the route's scope, environment or address. */
public class PermissionDeniedException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** An answer with this status, Error shape and headers. */
  public PermissionDeniedException(int status, String code, String message, String requestId, List<FieldError> fields, HttpHeaders headers) {
    super(status, code, message, requestId, fields, headers);
  }
}
