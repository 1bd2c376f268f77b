import { InvalidArgumentError, Option, type Command } from 'commander';
import { ALERT_COMPARISONS, ALERT_SEVERITIES, METRIC_NAMES } from '@earshot/contracts';
import type { Alert, AlertRule } from '@earshot/sdk';
import { durationArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { listOptions, pageQuery, showList, type ListOptions } from '../cli/lists';
import { cell, printJson, say, table } from '../cli/output';

function alertTable(alerts: readonly Alert[]): string {
  return table(
    ['ID', 'RULE', 'METRIC', 'VALUE', 'THRESHOLD', 'SEVERITY', 'AGENT', 'STATUS'],
    alerts.map((a) => [
      a.id,
      cell(a.ruleName ?? a.ruleId),
      a.metric,
      cell(a.value),
      `${cell(a.comparison)} ${cell(a.threshold)}`,
      cell(a.severity),
      cell(a.agentId, 'all'),
      a.status,
    ]),
  );
}

function ruleTable(rules: readonly AlertRule[]): string {
  return table(
    ['ID', 'NAME', 'METRIC', 'CONDITION', 'WINDOW', 'FOR', 'SEVERITY', 'AGENT', 'ENABLED'],
    rules.map((r) => [
      r.id,
      cell(r.name),
      r.metric,
      `${r.comparison} ${r.threshold}`,
      `${r.windowMs / 60_000} min`,
      `${r.forMs / 60_000} min`,
      cell(r.severity),
      cell(r.agentId, 'all'),
      r.enabled ? 'yes' : 'no',
    ]),
  );
}

function numberArgument(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value)) throw new InvalidArgumentError('give a number');
  return value;
}

interface RuleOptions {
  metric: (typeof METRIC_NAMES)[number];
  comparison: (typeof ALERT_COMPARISONS)[number];
  threshold: number;
  name?: string;
  agent?: string;
  window?: number;
  for?: number;
  severity?: (typeof ALERT_SEVERITIES)[number];
  json?: boolean;
}

export function registerAlertCommands(program: Command): void {
  const alerts = program.command('alerts').description('alerts fired by the alert rules, and their notifications');
  withExamples(alerts, [
    { what: 'what is firing now', run: 'earshot alerts list --status firing' },
    { what: 'the webhook deliveries of alerts', run: 'earshot alerts notifications' },
  ]);
  const list = listOptions(
    alerts
      .command('list')
      .description('alerts, newest first')
      .addOption(new Option('--status <status>', 'only alerts in this status').choices(['firing', 'resolved'] as const)),
    50,
  ).action(async (options: ListOptions & { status?: 'firing' | 'resolved' }, command: Command) => {
    await showList(
      clientOf(command).alerts.list({ ...pageQuery(options), ...(options.status ? { status: options.status } : {}) }),
      options,
      alertTable,
      'no alerts',
    );
  });
  withExamples(list, [
    { what: 'every alert', run: 'earshot alerts list' },
    { what: 'the firing ones as NDJSON', run: 'earshot alerts list --status firing --json' },
  ]);
  const notifications = listOptions(alerts.command('notifications').description('delivery attempts of alert notifications to the webhook'), 50).action(
    async (options: ListOptions, command: Command) => {
      await showList(
        clientOf(command).alerts.notifications(pageQuery(options)),
        options,
        (items) =>
          table(
            ['ALERT', 'ATTEMPT', 'STATUS', 'HTTP', 'AT'],
            items.map((n) => [n.alertId, String(n.attempt), n.status, cell(n.httpStatus), n.at]),
          ),
        'no notifications',
      );
    },
  );
  withExamples(notifications, [
    { what: 'the latest deliveries', run: 'earshot alerts notifications --limit 10' },
    { what: 'all of them as NDJSON', run: 'earshot alerts notifications --all --json' },
  ]);

  const rules = program.command('alert-rules').description('the thresholds that fire alerts');
  withExamples(rules, [
    { what: 'the rules', run: 'earshot alert-rules list' },
    { what: 'alert when p95 latency passes 1.5 s', run: 'earshot alert-rules create --metric latency.total_ms.p95 --comparison gt --threshold 1500' },
  ]);
  const ruleList = listOptions(rules.command('list').description("the tenant's alert rules"), 50).action(async (options: ListOptions, command: Command) => {
    await showList(clientOf(command).alertRules.list(pageQuery(options)), options, ruleTable, 'no alert rules');
  });
  withExamples(ruleList, [
    { what: 'every rule', run: 'earshot alert-rules list' },
    { what: 'as NDJSON', run: 'earshot alert-rules list --json' },
  ]);
  const get = rules
    .command('get')
    .description('one alert rule')
    .argument('<id>', "the rule's id")
    .option('--json', 'as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const rule = await clientOf(command).alertRules.retrieve(id);
      if (options.json) printJson(rule);
      else say(ruleTable([rule]));
    });
  withExamples(get, [
    { what: 'one rule (RULE_ID from "earshot alert-rules list")', run: 'earshot alert-rules get $RULE_ID' },
    { what: 'as JSON', run: 'earshot alert-rules get $RULE_ID --json' },
  ]);
  const create = rules
    .command('create')
    .description('add a rule: a metric, a comparison and a threshold over a window')
    .addOption(new Option('--metric <name>', 'a metric of "earshot metrics catalogue"').choices(METRIC_NAMES).makeOptionMandatory())
    .addOption(new Option('--comparison <op>', 'how the metric compares to the threshold').choices(ALERT_COMPARISONS).makeOptionMandatory())
    .addOption(new Option('--threshold <n>', 'the threshold').argParser(numberArgument).makeOptionMandatory())
    .option('--name <text>', 'a name for people')
    .option('--agent <id>', 'watch one agent (all when left out)')
    .addOption(new Option('--window <duration>', 'the window the metric is computed over (default 5m)').argParser(durationArgument))
    .addOption(new Option('--for <duration>', 'how long the breach must hold before firing (default 0s)').argParser(durationArgument))
    .addOption(new Option('--severity <level>', 'the alert severity').choices(ALERT_SEVERITIES))
    .option('--json', "the API's answer as JSON")
    .action(async (options: RuleOptions, command: Command) => {
      const answer = await clientOf(command).alertRules.create({
        metric: options.metric,
        comparison: options.comparison,
        threshold: options.threshold,
        ...(options.name ? { name: options.name } : {}),
        ...(options.agent ? { agentId: options.agent } : {}),
        ...(options.window === undefined ? {} : { windowMs: options.window }),
        ...(options.for === undefined ? {} : { forMs: options.for }),
        ...(options.severity ? { severity: options.severity } : {}),
      });
      if (options.json) printJson(answer);
      else say(`created alert rule ${answer.id}`);
    });
  withExamples(create, [
    { what: 'alert when p95 latency passes 1.5 s', run: 'earshot alert-rules create --metric latency.total_ms.p95 --comparison gt --threshold 1500' },
    {
      what: "one agent's success rate, held for 10 minutes",
      run: 'earshot alert-rules create --name "support success" --metric calls.success_rate --comparison lt --threshold 0.9 --agent agent_support --window 15m --for 10m --severity critical --json',
    },
  ]);
  const remove = rules
    .command('delete')
    .description('remove an alert rule')
    .argument('<id>', "the rule's id")
    .option('--json', "the API's answer as JSON")
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const answer = await clientOf(command).alertRules.delete(id);
      if (options.json) printJson(answer);
      else say(`deleted alert rule ${answer.id}`);
    });
  withExamples(remove, [
    { what: 'remove a rule', run: 'earshot alert-rules delete $RULE_ID' },
    { what: 'and print the answer as JSON', run: 'earshot alert-rules delete $RULE_ID --json' },
  ]);
}
