package dev.earshot.errors;

import dev.earshot.models.FieldError;
import java.net.http.HttpHeaders;
import java.util.List;

/** UNAUTHORIZED (401): a missing, wrong, expired or revoked key, or a bad signature. */
public class AuthenticationException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** An answer with this status, Error shape and headers. */
  public AuthenticationException(int status, String code, String message, String requestId, List<FieldError> fields, HttpHeaders headers) {
    super(status, code, message, requestId, fields, headers);
  }
}
