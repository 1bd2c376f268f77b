import { Option, type Command } from 'commander';
import type { AuditEntry, Invoice, Outcome, Usage } from '@earshot/sdk';
import { timeArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { listOptions, pageQuery, showList, type ListOptions } from '../cli/lists';
import { cell, printJson, say, table } from '../cli/output';

const money = (cents: number, currency: string): string => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

function outcomeTable(outcomes: readonly Outcome[]): string {
  return table(
    ['ID', 'CALL', 'TYPE', 'VALUE', 'REVENUE', 'AGENT', 'RECORDED'],
    outcomes.map((o) => [o.id, o.callId, o.type, cell(o.value), o.revenueUsd === null ? '-' : `$${o.revenueUsd.toFixed(2)}`, cell(o.agent), o.recordedAt]),
  );
}

function usageTables(usage: Usage): string {
  const { period } = usage;
  const days = table(
    ['DAY', 'EVENTS', 'CALLS', 'CALL MINUTES', 'API REQUESTS', 'STORED BYTES'],
    usage.items.map((d) => [d.day, String(d.eventsIngested), String(d.calls), String(d.callMinutes), String(d.apiRequests), String(d.storedBytes)]),
  );
  const meters = table(
    ['METER', 'QUANTITY', 'LIMIT', 'AMOUNT', 'PROJECTED'],
    period.meters.map((m) => [
      m.meter,
      String(m.quantity),
      cell(m.limit, 'none'),
      money(m.amountCents, period.currency),
      money(m.projectedAmountCents, period.currency),
    ]),
  );
  return `${days}\nPeriod ${period.start} to ${period.end}, plan ${period.planId}: ${money(period.totalCents, period.currency)} so far, ${money(period.projectedTotalCents, period.currency)} projected\n${meters}`;
}

function invoiceTable(invoices: readonly Invoice[]): string {
  return table(
    ['NUMBER', 'PERIOD', 'STATUS', 'PLAN', 'TOTAL', 'ISSUED'],
    invoices.map((i) => [String(i.number), `${i.periodStart} to ${i.periodEnd}`, i.status, i.planId, money(i.totalCents, i.currency), i.issuedAt]),
  );
}

function auditTable(entries: readonly AuditEntry[]): string {
  return table(
    ['AT', 'ACTION', 'TARGET', 'BY', 'IP'],
    entries.map((e) => [e.at, e.action, cell(e.target), e.actor.kind === 'operator' ? 'operator' : cell(e.actor.keyName ?? e.actor.keyId), cell(e.ip)]),
  );
}

export function registerRecordCommands(program: Command): void {
  const outcomes = program.command('outcomes').description('what calls achieved: a booking, a sale, a refund');
  withExamples(outcomes, [
    { what: 'the latest outcomes', run: 'earshot outcomes list' },
    { what: 'record one for a call', run: 'earshot outcomes create --call $CALL_ID --type appointment_booked --revenue 80' },
  ]);
  const list = listOptions(outcomes.command('list').description('outcomes, newest first').option('--call <id>', "only this call's"), 100).action(
    async (options: ListOptions & { call?: string }, command: Command) => {
      await showList(
        clientOf(command).outcomes.list({ ...pageQuery(options), ...(options.call ? { callId: options.call } : {}) }),
        options,
        outcomeTable,
        'no outcomes',
      );
    },
  );
  withExamples(list, [
    { what: 'every outcome', run: 'earshot outcomes list --all' },
    { what: "one call's, as NDJSON", run: 'earshot outcomes list --call $CALL_ID --json' },
  ]);
  const create = outcomes
    .command('create')
    .description('record an outcome for a call')
    .requiredOption('--call <id>', 'the call')
    .requiredOption('--type <type>', 'what happened, e.g. appointment_booked')
    .option('--value <text>', 'a value, e.g. the booking reference')
    .addOption(new Option('--revenue <usd>', 'revenue in US dollars').argParser(Number))
    .option('--json', "the API's answer as JSON")
    .action(async (options: { call: string; type: string; value?: string; revenue?: number; json?: boolean }, command: Command) => {
      const answer = await clientOf(command).outcomes.create({
        callId: options.call,
        type: options.type,
        ...(options.value ? { value: options.value } : {}),
        ...(options.revenue === undefined ? {} : { revenueUsd: options.revenue }),
      });
      if (options.json) printJson(answer);
      else say(`recorded outcome ${answer.id}`);
    });
  withExamples(create, [
    { what: 'a booking worth $80', run: 'earshot outcomes create --call $CALL_ID --type appointment_booked --revenue 80' },
    { what: 'a refund, answered as JSON', run: 'earshot outcomes create --call $CALL_ID --type refund_issued --value R-1093 --json' },
  ]);

  const usage = program
    .command('usage')
    .description('metered usage per day, and the current billing period against the plan')
    .addOption(new Option('--from <time>', 'first day: ISO date, today, yesterday or a duration ago').argParser((t) => timeArgument(t)))
    .addOption(new Option('--to <time>', 'last day').argParser((t) => timeArgument(t)))
    .option('--json', 'as JSON')
    .action(async (options: { from?: string; to?: string; json?: boolean }, command: Command) => {
      const answer = await clientOf(command).usage.retrieve({ ...(options.from ? { from: options.from } : {}), ...(options.to ? { to: options.to } : {}) });
      if (options.json) printJson(answer);
      else say(usageTables(answer));
    });
  withExamples(usage, [
    { what: 'this period so far', run: 'earshot usage' },
    { what: 'the last week, as JSON', run: 'earshot usage --from 7d --json' },
  ]);

  const invoices = program.command('invoices').description('the invoice history');
  withExamples(invoices, [
    { what: 'the invoices', run: 'earshot invoices list' },
    { what: 'as NDJSON', run: 'earshot invoices list --all --json' },
  ]);
  const invoiceList = listOptions(invoices.command('list').description('invoices, newest first'), 24).action(async (options: ListOptions, command: Command) => {
    await showList(clientOf(command).invoices.list(pageQuery(options)), options, invoiceTable, 'no invoices');
  });
  withExamples(invoiceList, [
    { what: 'the latest invoices', run: 'earshot invoices list' },
    { what: 'every invoice as NDJSON', run: 'earshot invoices list --all --json' },
  ]);

  const audit = listOptions(
    program.command('audit').description('who did what with the keys, settings and records').option('--action <name>', 'only this action, e.g. key.created'),
    50,
  ).action(async (options: ListOptions & { action?: string }, command: Command) => {
    await showList(
      clientOf(command).audit.list({ ...pageQuery(options), ...(options.action ? { action: options.action } : {}) }),
      options,
      auditTable,
      'no audit entries',
    );
  });
  withExamples(audit, [
    { what: 'the latest entries', run: 'earshot audit --limit 20' },
    { what: 'deployments recorded, as NDJSON', run: 'earshot audit --action deployment.recorded --json' },
  ]);
}
