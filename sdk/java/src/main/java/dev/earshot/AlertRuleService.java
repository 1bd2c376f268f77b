package dev.earshot;

import dev.earshot.models.AlertRule;
import dev.earshot.models.AlertRuleCreateParams;
import dev.earshot.models.AlertRuleListParams;
import dev.earshot.models.AlertRuleUpdateParams;
import dev.earshot.models.WriteResult;

/** Alert rules: /alerts/rules. */
public final class AlertRuleService {
  private final Transport transport;

  AlertRuleService(Transport transport) {
    this.transport = transport;
  }

  /** The alert rules. */
  public PagedList<AlertRule> list(AlertRuleListParams params) {
    return new PagedList<>(transport, "/alerts/rules", params, AlertRule.class);
  }

  /** Every alert rule. */
  public PagedList<AlertRule> list() {
    return list(null);
  }

  /** Adds an alert rule. */
  public WriteResult create(AlertRuleCreateParams params) {
    return transport.call("POST", "/alerts/rules", null, params, WriteResult.class, RequestOptions.NONE);
  }

  /** One alert rule. */
  public AlertRule retrieve(String id) {
    return transport.member("GET", Transport.path("/alerts/rules/%s", id), "rule", null, AlertRule.class, RequestOptions.NONE);
  }

  /** Changes an alert rule. */
  public WriteResult update(String id, AlertRuleUpdateParams params) {
    return transport.call("PATCH", Transport.path("/alerts/rules/%s", id), null, params, WriteResult.class, RequestOptions.NONE);
  }

  /** Removes an alert rule. */
  public WriteResult delete(String id) {
    return transport.call("DELETE", Transport.path("/alerts/rules/%s", id), null, null, WriteResult.class, RequestOptions.NONE);
  }
}
