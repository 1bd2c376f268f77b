import type { RequestOptions } from '../http.js';
import type { Alert, AlertListParams, AlertNotification, AlertNotificationListParams, AlertWebhook, AlertWebhookParams } from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource } from './resource.js';

/** `earshot.alerts.webhook`: where alert notifications are delivered. */
export class AlertWebhookSettings extends Resource {
  /** The notification target and whether it is enabled. */
  get(options?: RequestOptions): Promise<AlertWebhook> {
    return this.read('/alerts/webhook', undefined, options);
  }

  /** Sets the notification target. */
  set(target: AlertWebhookParams, options?: RequestOptions): Promise<AlertWebhook> {
    return this.send('PUT', '/alerts/webhook', target, options);
  }
}

/** `earshot.alerts`: alerts fired by the tenant's rules, and their notifications. */
export class Alerts extends Resource {
  readonly webhook = new AlertWebhookSettings(this.transport);

  /** Alerts, filtered by `status` (firing, resolved). */
  list(params: AlertListParams = {}, options?: RequestOptions): PagedList<Alert> {
    return this.paged('/alerts', params, options);
  }

  /** Delivery attempts of alert notifications to the webhook. */
  notifications(params: AlertNotificationListParams = {}, options?: RequestOptions): PagedList<AlertNotification> {
    return this.paged('/alerts/notifications', params, options);
  }
}
