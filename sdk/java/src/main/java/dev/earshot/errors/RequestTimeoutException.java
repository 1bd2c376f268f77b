package dev.earshot.errors;

/** An attempt took longer than the client's timeout (after the retries). */
public class RequestTimeoutException extends ConnectionException {
  private static final long serialVersionUID = 1L;

  /** A timeout and its cause. */
  public RequestTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
