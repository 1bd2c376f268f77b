package dev.earshot.errors;

import dev.earshot.models.FieldError;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A non-2xx answer of the API: its Error shape ({@code ok: false}, {@code error},
 * {@code code}), the HTTP status, the request id and the headers. Each code has
 * its subclass; any other code is an ApiException itself.
 */
public class ApiException extends EarshotException {
  private static final long serialVersionUID = 1L;

  /** The HTTP status. */
  private final int status;
  /** The Error shape's code. */
  private final String code;
  /** The server's id of the request. */
  private final String requestId;
  private final transient List<FieldError> fields;
  private final transient HttpHeaders headers;

  /** An answer with this status, Error shape and headers. */
  public ApiException(int status, String code, String message, String requestId, List<FieldError> fields, HttpHeaders headers) {
    super("earshot: " + status + " " + code + ": " + message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.fields = fields == null ? List.of() : List.copyOf(fields);
    this.headers = headers;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The Error shape's code, e.g. {@code NOT_FOUND}. */
  public String code() {
    return code;
  }

  /** The server's id of the request, for support. */
  public String requestId() {
    return requestId;
  }

  /** The fields a VALIDATION_ERROR refused; empty otherwise. */
  public List<FieldError> fields() {
    return fields;
  }

  /** The answer's headers. */
  public HttpHeaders headers() {
    return headers;
  }

  /** The wait the answer asked for in Retry-After, if any. */
  public Optional<Duration> retryAfter() {
    return headers == null ? Optional.empty() : headers.firstValue("retry-after").flatMap(ApiException::seconds);
  }

  private static Optional<Duration> seconds(String value) {
    try {
      return Optional.of(Duration.ofSeconds(Long.parseLong(value.trim())));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** The typed exception for an answer's code. */
  public static ApiException of(int status, String code, String message, String requestId, List<FieldError> fields, HttpHeaders headers) {
    String c = code == null ? "" : code;
    return switch (c) {
      case "UNAUTHORIZED" -> new AuthenticationException(status, c, message, requestId, fields, headers);
      case "FORBIDDEN" -> new PermissionDeniedException(status, c, message, requestId, fields, headers);
      case "NOT_FOUND" -> new NotFoundException(status, c, message, requestId, fields, headers);
      case "VALIDATION_ERROR" -> new ValidationException(status, c, message, requestId, fields, headers);
      case "IDEMPOTENCY_CONFLICT", "IDEMPOTENCY_MISMATCH" -> new IdempotencyConflictException(status, c, message, requestId, fields, headers);
      case "RATE_LIMITED" -> new RateLimitException(status, c, message, requestId, fields, headers);
      case "PROVIDER_ERROR" -> new ProviderException(status, c, message, requestId, fields, headers);
      case "UNAVAILABLE" -> new UnavailableException(status, c, message, requestId, fields, headers);
      default -> new ApiException(status, c, message, requestId, fields, headers);
    };
  }
}
