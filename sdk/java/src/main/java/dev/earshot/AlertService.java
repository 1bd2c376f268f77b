package dev.earshot;

import dev.earshot.models.Alert;
import dev.earshot.models.AlertListParams;
import dev.earshot.models.AlertNotification;
import dev.earshot.models.AlertNotificationListParams;
import dev.earshot.models.AlertWebhook;
import dev.earshot.models.AlertWebhookParams;

/** Alerts, their notifications and where they are sent: /alerts. */
public final class AlertService {
  private final Transport transport;
  private final Webhook webhook;

  AlertService(Transport transport) {
    this.transport = transport;
    this.webhook = new Webhook();
  }

  /** The alerts that match params (null for all). */
  public PagedList<Alert> list(AlertListParams params) {
    return new PagedList<>(transport, "/alerts", params, Alert.class);
  }

  /** The delivery attempts of alert notifications to the webhook. */
  public PagedList<AlertNotification> notifications(AlertNotificationListParams params) {
    return new PagedList<>(transport, "/alerts/notifications", params, AlertNotification.class);
  }

  /** The URL alert notifications are delivered to. */
  public Webhook webhook() {
    return webhook;
  }

  /** The alert webhook: GET and PUT /alerts/webhook. */
  public final class Webhook {
    private Webhook() {}

    /** Where alert notifications go, if anywhere. */
    public AlertWebhook get() {
      return transport.call("GET", "/alerts/webhook", null, null, AlertWebhook.class, RequestOptions.NONE);
    }

    /** Sets where alert notifications go, and whether they are sent. */
    public AlertWebhook set(AlertWebhookParams params) {
      return transport.call("PUT", "/alerts/webhook", null, params, AlertWebhook.class, RequestOptions.NONE);
    }
  }
}
