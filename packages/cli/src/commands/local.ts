import { InvalidArgumentError, Option, type Command } from 'commander';
import { countArgument } from '../cli/arguments';
import { withExamples } from '../cli/examples';
import type { GlobalOptions } from '../cli/connection';
import type { TenantAction, TenantOptions } from './tenant';

const SERVICES = 'gateway, projector, query, audit, keys, alerting, billing, developer';

function positiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('give a positive number');
  return value;
}

/** The commands that run Earshot itself or work on its log and operator API; their modules load only when they run. */
export function registerLocalCommands(program: Command): void {
  const serve = program
    .command('serve')
    .description(`run Earshot services in this process: all, or a comma list of ${SERVICES}`)
    .option('--target <names>', 'the services to run', 'all')
    .addOption(new Option('--port <port>', 'the HTTP port (default 8080, or the next free one)').env('PORT'))
    .action(async (options: { target: string; port?: string }) => (await import('./serve')).serve(options));
  withExamples(serve, [
    { what: 'everything, zero setup (embedded Postgres and log)', run: 'earshot serve' },
    { what: 'only the read side, on any free port', run: 'earshot serve --target query,projector --port 0' },
  ]);

  const tenant = program.command('tenant').description('operator: tenants on this instance (token from EARSHOT_ADMIN_TOKEN)');
  withExamples(tenant, [
    { what: 'the tenants', run: 'earshot tenant list' },
    { what: 'a new tenant, with its key and webhook secret', run: 'earshot tenant create --name "Acme Voice"' },
  ]);
  const tenantCommand = (action: TenantAction, description: string, withId: boolean): Command => {
    const command = tenant.command(action).description(description).option('--json', "the API's answer as JSON");
    if (withId) command.argument('<id>', "the tenant's id");
    return command.action(async (...args: unknown[]) => {
      const self = args[args.length - 1] as Command;
      const id = withId ? (args[0] as string) : undefined;
      const options = self.optsWithGlobals<TenantOptions & GlobalOptions>();
      await (await import('./tenant')).tenantAction(action, id, options);
    });
  };
  withExamples(
    tenantCommand('create', 'create a tenant; its API key and webhook secret are shown once', false).requiredOption('--name <name>', "the tenant's name"),
    [
      { what: 'a new tenant', run: 'earshot tenant create --name "Acme Voice"' },
      { what: 'as JSON, for a script', run: 'earshot tenant create --name "Globex Support" --json' },
    ],
  );
  withExamples(tenantCommand('list', 'the tenants', false).addOption(new Option('--status <status>', 'only these').choices(['active', 'suspended'] as const)), [
    { what: 'every tenant', run: 'earshot tenant list' },
    { what: 'the suspended ones as JSON', run: 'earshot tenant list --status suspended --json' },
  ]);
  withExamples(tenantCommand('suspend', 'suspend a tenant: its keys are refused everywhere', true), [
    { what: 'suspend a tenant (TENANT_ID from "earshot tenant list")', run: 'earshot tenant suspend $TENANT_ID' },
    { what: 'as JSON', run: 'earshot tenant suspend $TENANT_ID --json' },
  ]);
  withExamples(tenantCommand('resume', 'resume a suspended tenant', true), [
    { what: 'resume a tenant', run: 'earshot tenant resume $TENANT_ID' },
    { what: 'as JSON', run: 'earshot tenant resume $TENANT_ID --json' },
  ]);
  withExamples(tenantCommand('delete', 'delete a tenant and all its data', true), [
    { what: 'delete a tenant', run: 'earshot tenant delete $DOOMED_TENANT_ID' },
    { what: 'as JSON', run: 'earshot tenant delete $DOOMED_TENANT_ID --json' },
  ]);

  const replay = program
    .command('replay')
    .description('rebuild the read models from the log into fresh tables, then swap them in')
    .option('--from <time>', 'earliest, or an ISO time', 'earliest')
    .action(async (options: { from: string }) => (await import('./replay')).replay(options));
  withExamples(replay, [
    { what: 'from the beginning of the log', run: 'earshot replay' },
    { what: 'from a time', run: 'earshot replay --from 2026-01-01T00:00:00Z' },
  ]);

  const exportCommand = program
    .command('export')
    .description('write a topic of the log to a file, for a data team')
    .option('--topic <topic>', 'the topic', 'earshot.events')
    .option('--from <time>', 'earliest, or an ISO time', 'earliest')
    .option('--to <time>', 'an ISO time (default: the end)')
    .addOption(new Option('--format <format>', 'file format').choices(['ndjson', 'avro']).default('ndjson'))
    .requiredOption('--out <file>', 'the file to write')
    .option('--key <api key>', "a tenant's API key with exports:read: only its records, its sealed fields opened (default: every tenant's, sealed)")
    .action(async (options: { topic: string; from?: string; to?: string; format: string; out: string; key?: string }) =>
      (await import('./export')).exportTopic(options),
    );
  withExamples(exportCommand, [
    { what: 'every event as NDJSON', run: 'earshot export --out events.ndjson' },
    { what: 'one day as Avro', run: 'earshot export --from 2026-01-08T00:00:00Z --to 2026-01-09T00:00:00Z --format avro --out events.avro' },
    { what: "one tenant's events, sealed fields opened", run: 'earshot export --key $EARSHOT_API_KEY --out tenant.ndjson' },
  ]);

  const demo = program
    .command('demo')
    .description("stream realistic signed calls into an instance (this directory's demonstration tenant unless --key and --secret are given)")
    .addOption(new Option('--calls <n>', 'how many calls').argParser(countArgument).default(50))
    .addOption(new Option('--rate <events/s>', "at most this many envelopes per second (default: under a tenant's ingest limit)").argParser(positiveNumber))
    .addOption(new Option('--seed <n>', 'the same seed makes the same calls').argParser(countArgument))
    .addOption(new Option('--secret <secret>', "the tenant's webhook secret, to sign with").env('EARSHOT_WEBHOOK_SECRET'))
    .addOption(new Option('--otlp', 'send LiveKit- and Pipecat-shaped sessions as OpenTelemetry traces to /v1/traces instead'))
    .action(async (options: { calls: number; rate?: number; seed?: number; secret?: string; otlp?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      await (await import('./demo')).demo({ ...options, ...(globals.url ? { url: globals.url } : {}), ...(globals.key ? { key: globals.key } : {}) });
    });
  withExamples(demo, [
    { what: 'five calls into the instance started in this directory', run: 'earshot demo --calls 5' },
    {
      what: 'five calls into a tenant of your own',
      run: 'earshot demo --calls 5 --seed 7 --url $EARSHOT_BASE_URL --key $EARSHOT_API_KEY --secret $EARSHOT_WEBHOOK_SECRET',
    },
  ]);
}
