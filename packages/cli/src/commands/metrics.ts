import { Argument, Option, type Command } from 'commander';
import { METRIC_INTERVALS, METRIC_NAMES } from '@earshot/contracts';
import type { MetricSeries } from '@earshot/sdk';
import { timeArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { cell, printJson, say, table } from '../cli/output';
import { canDrawSparkline, sparkline } from '../cli/sparkline';

interface SeriesOptions {
  agent?: string;
  from?: string;
  to?: string;
  interval?: (typeof METRIC_INTERVALS)[number];
  json?: boolean;
}

function seriesTable(series: MetricSeries): string {
  return table(
    ['TIME', series.unit.toUpperCase()],
    series.points.map((p) => [p.t, cell(p.value)]),
  );
}

export function registerMetricCommands(program: Command): void {
  const metrics = program.command('metrics').description('time series of the calls: latency, success rate, volume, quality');
  withExamples(metrics, [
    { what: 'what can be charted', run: 'earshot metrics catalogue' },
    { what: 'calls per hour today', run: 'earshot metrics series calls.total --from today --interval 1h' },
  ]);
  const catalogue = metrics
    .command('catalogue')
    .description('every metric, what it measures and its unit')
    .option('--json', 'one metric per line (NDJSON)')
    .action(async (options: { json?: boolean }, command: Command) => {
      const items = await clientOf(command).metrics.catalogue();
      if (options.json) for (const item of items) say(JSON.stringify(item));
      else
        say(
          table(
            ['NAME', 'UNIT', 'DESCRIPTION'],
            items.map((m) => [m.name, m.unit, m.description]),
          ),
        );
    });
  withExamples(catalogue, [
    { what: 'the metrics', run: 'earshot metrics catalogue' },
    { what: 'as NDJSON', run: 'earshot metrics catalogue --json' },
  ]);
  const series = metrics
    .command('series')
    .description('one metric over time, as a table (and a sparkline on a UTF-8 terminal)')
    .addArgument(new Argument('<name>', 'a metric of "earshot metrics catalogue"').choices(METRIC_NAMES))
    .option('--agent <id>', "one agent's series")
    .addOption(new Option('--from <time>', 'start: ISO time, today, yesterday or a duration ago (default 24h)').argParser((t) => timeArgument(t)))
    .addOption(new Option('--to <time>', 'end (default now)').argParser((t) => timeArgument(t)))
    .addOption(new Option('--interval <interval>', 'bucket size (default: the finest within 1,000 points)').choices(METRIC_INTERVALS))
    .option('--json', 'as JSON')
    .action(async (name: (typeof METRIC_NAMES)[number], options: SeriesOptions, command: Command) => {
      const answer = await clientOf(command).metrics.series({
        name,
        ...(options.agent ? { agentId: options.agent } : {}),
        ...(options.from ? { from: options.from } : {}),
        ...(options.to ? { to: options.to } : {}),
        ...(options.interval ? { interval: options.interval } : {}),
      });
      if (options.json) return printJson(answer);
      say(`${answer.name} (${answer.unit}) every ${answer.interval}, ${answer.from} to ${answer.to}${answer.agentId ? `, agent ${answer.agentId}` : ''}`);
      if (canDrawSparkline()) say(sparkline(answer.points.map((p) => p.value)));
      say(answer.points.length === 0 ? 'no points' : seriesTable(answer));
    });
  withExamples(series, [
    { what: 'calls per hour today', run: 'earshot metrics series calls.total --from today --interval 1h' },
    {
      what: "one agent's p95 latency over a week, as JSON",
      run: 'earshot metrics series latency.total_ms.p95 --agent agent_support --from 7d --interval 1d --json',
    },
  ]);
}
