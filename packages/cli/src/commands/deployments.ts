import { Option, type Command } from 'commander';
import type { Deployment, DeploymentImpact } from '@earshot/sdk';
import { countArgument, timeArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { listOptions, pageQuery, showList, type ListOptions } from '../cli/lists';
import { cell, printJson, say, table } from '../cli/output';

function deploymentTable(deployments: readonly Deployment[]): string {
  return table(
    ['ID', 'AGENT', 'VERSION', 'PREVIOUS', 'DEPLOYED', 'ENVIRONMENT', 'BY'],
    deployments.map((d) => [d.id, d.agent, d.version, cell(d.previousVersion), d.deployedAt, cell(d.environment), cell(d.deployedBy)]),
  );
}

const rounded = (value: number | null): string => (value === null ? '-' : String(Math.round(value * 1000) / 1000));

/** Each metric before and after the release, flagged where the change is more than chance and worse for callers. */
function impactTable(impact: DeploymentImpact): string {
  return table(
    ['METRIC', 'UNIT', 'BEFORE', 'AFTER', 'CHANGE', 'P', 'VERDICT'],
    impact.metrics.map((m) => [
      m.metric,
      m.unit,
      `${rounded(m.before.value)} (n=${m.before.samples})`,
      `${rounded(m.after.value)} (n=${m.after.samples})`,
      m.changePercent === null ? '-' : `${m.changePercent > 0 ? '+' : ''}${m.changePercent.toFixed(1)}%`,
      rounded(m.pValue),
      m.significant ? (m.regression ? 'REGRESSION' : 'improved') : 'no significant change',
    ]),
  );
}

export function registerDeploymentCommands(program: Command): void {
  const deployments = program.command('deployments').description('agent releases, and what each did to the calls after it');
  withExamples(deployments, [
    { what: "one agent's releases", run: 'earshot deployments list --agent agent_support' },
    { what: 'did a release make things worse?', run: 'earshot deployments impact $DEPLOYMENT_ID' },
  ]);
  const list = listOptions(deployments.command('list').description('deployments, newest first').option('--agent <id>', "only this agent's"), 50).action(
    async (options: ListOptions & { agent?: string }, command: Command) => {
      await showList(
        clientOf(command).deployments.list({ ...pageQuery(options), ...(options.agent ? { agent: options.agent } : {}) }),
        options,
        deploymentTable,
        'no deployments',
      );
    },
  );
  withExamples(list, [
    { what: 'every deployment', run: 'earshot deployments list' },
    { what: "one agent's, as NDJSON", run: 'earshot deployments list --agent agent_support --json' },
  ]);
  const get = deployments
    .command('get')
    .description('one deployment')
    .argument('<id>', "the deployment's id")
    .option('--json', 'as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const deployment = await clientOf(command).deployments.retrieve(id);
      if (options.json) printJson(deployment);
      else say(deploymentTable([deployment]));
    });
  withExamples(get, [
    { what: 'one deployment (DEPLOYMENT_ID from "earshot deployments list")', run: 'earshot deployments get $DEPLOYMENT_ID' },
    { what: 'as JSON', run: 'earshot deployments get $DEPLOYMENT_ID --json' },
  ]);
  const create = deployments
    .command('create')
    .description('record a release of an agent')
    .requiredOption('--agent <id>', 'the agent released')
    .requiredOption('--version <version>', 'its new version')
    .option('--previous <version>', 'the version it replaced')
    .option('--environment <name>', 'where it was released')
    .addOption(new Option('--at <time>', 'when (default now)').argParser((t) => timeArgument(t)))
    .option('--json', "the API's answer as JSON")
    .action(async (options: { agent: string; version: string; previous?: string; environment?: string; at?: string; json?: boolean }, command: Command) => {
      const answer = await clientOf(command).deployments.create({
        agent: options.agent,
        version: options.version,
        ...(options.previous ? { previousVersion: options.previous } : {}),
        ...(options.environment ? { environment: options.environment } : {}),
        ...(options.at ? { deployedAt: options.at } : {}),
      });
      if (options.json) printJson(answer);
      else say(`recorded deployment ${answer.id}`);
    });
  withExamples(create, [
    { what: 'record a release', run: 'earshot deployments create --agent agent_support --version v42 --previous v41' },
    { what: 'one made an hour ago, answered as JSON', run: 'earshot deployments create --agent agent_support --version v43 --at 1h --json' },
  ]);
  const impact = deployments
    .command('impact')
    .description('metrics in a window before and after the release, with whether each change is significant')
    .argument('<id>', "the deployment's id")
    .addOption(new Option('--window <minutes>', 'length of each window in minutes (default 60)').argParser(countArgument))
    .option('--json', 'as JSON')
    .action(async (id: string, options: { window?: number; json?: boolean }, command: Command) => {
      const answer = await clientOf(command).deployments.impact(id, options.window === undefined ? {} : { windowMinutes: options.window });
      if (options.json) return printJson(answer);
      say(`${answer.deployment.agent} ${answer.deployment.version}, deployed ${answer.deployment.deployedAt}`);
      say(answer.metrics.length === 0 ? 'no metrics in the windows' : impactTable(answer));
    });
  withExamples(impact, [
    { what: 'the hour before against the hour after', run: 'earshot deployments impact $DEPLOYMENT_ID' },
    { what: 'a day on each side, as JSON', run: 'earshot deployments impact $DEPLOYMENT_ID --window 1440 --json' },
  ]);
}
