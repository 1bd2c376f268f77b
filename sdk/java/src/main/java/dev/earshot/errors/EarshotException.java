package dev.earshot.errors;

/** The base of every error the SDK throws; unchecked. */
public class EarshotException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error with a message. */
  public EarshotException(String message) {
    super(message);
  }

  /** An error with a message and its cause. */
  public EarshotException(String message, Throwable cause) {
    super(message, cause);
  }
}
