package dev.earshot.errors;

/** An alert notification whose signature, timestamp or body does not verify. */
public class WebhookVerificationException extends EarshotException {
  private static final long serialVersionUID = 1L;

  /** Why it does not verify. */
  public WebhookVerificationException(String message) {
    super("earshot: webhook verification failed: " + message);
  }
}
