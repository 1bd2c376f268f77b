package dev.earshot.errors;

/** The server could not be reached, or the connection broke (after the retries). */
public class ConnectionException extends EarshotException {
  private static final long serialVersionUID = 1L;

  /** A connection failure and its cause. */
  public ConnectionException(String message, Throwable cause) {
    super(message, cause);
  }
}
