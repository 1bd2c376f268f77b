export { alertingModule, ALERTING_MIGRATIONS, type AlertingOptions } from './alerting';
export { evaluateRules, ruleValue } from './evaluator';
export { notificationBody, startNotifier } from './notifier';
export { decide, type RuleState } from './rule-state';
