package dev.earshot.errors;

import dev.earshot.models.FieldError;
import java.net.http.HttpHeaders;
import java.util.List;

/** NOT_FOUND (404). */
public class NotFoundException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** An answer with this status, Error shape and headers. */
  public NotFoundException(int status, String code, String message, String requestId, List<FieldError> fields, HttpHeaders headers) {
    super(status, code, message, requestId, fields, headers);
  }
}
