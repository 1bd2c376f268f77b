import type { RequestOptions } from '../http.js';
import type { WriteResult, AlertRule, AlertRuleUpdateParams, AlertRuleCreateParams, AlertRuleListParams, Success } from '../models.js';
import type { PagedList } from '../pagination.js';
import { Resource, segment } from './resource.js';

/** `earshot.alertRules`: the thresholds that fire alerts. */
export class AlertRules extends Resource {
  /** The tenant's rules. */
  list(params: AlertRuleListParams = {}, options?: RequestOptions): PagedList<AlertRule> {
    return this.paged('/alerts/rules', params, options);
  }

  /** Adds a rule: a metric, a comparison and a threshold over a window. */
  create(rule: AlertRuleCreateParams, options?: RequestOptions): Promise<WriteResult> {
    return this.send('POST', '/alerts/rules', rule, options);
  }

  /** One rule; NotFoundError when the tenant has no such rule. */
  async retrieve(id: string, options?: RequestOptions): Promise<AlertRule> {
    return (await this.read<Success<'/api/v1/alerts/rules/{id}', 'get'>>(`/alerts/rules/${segment(id)}`, undefined, options)).rule;
  }

  /** Changes a rule. */
  update(id: string, change: AlertRuleUpdateParams, options?: RequestOptions): Promise<WriteResult> {
    return this.send('PATCH', `/alerts/rules/${segment(id)}`, change, options);
  }

  /** Removes a rule. */
  delete(id: string, options?: RequestOptions): Promise<WriteResult> {
    return this.send('DELETE', `/alerts/rules/${segment(id)}`, undefined, options);
  }
}
