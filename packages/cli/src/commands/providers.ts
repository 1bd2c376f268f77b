import { readFileSync } from 'node:fs';
import { Argument, Option, type Command } from 'commander';
import { CONNECTION_STATUSES, PROVIDER_NAMES, type ProviderName } from '@earshot/contracts';
import type { ProviderConnection, ProviderConnectionCreateParams, ProviderCredentialRotateParams } from '@earshot/sdk';
import { durationArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { UsageError } from '../cli/exit-codes';
import { listOptions, pageQuery, showList, type ListOptions } from '../cli/lists';
import { printJson, say, table } from '../cli/output';

/** The connections as a table for people: where each provider posts, never its credentials. */
function connectionTable(connections: readonly ProviderConnection[]): string {
  return table(
    ['ID', 'PROVIDER', 'NAME', 'STATUS', 'WEBHOOK URL', 'ROTATED'],
    connections.map((c) => [
      c.id,
      c.provider,
      c.name,
      c.status,
      c.webhookUrl,
      c.previousCredentialsValidUntil ? `previous valid until ${c.previousCredentialsValidUntil}` : (c.credentialsRotatedAt ?? 'never'),
    ]),
  );
}

interface CredentialOptions {
  credentials?: string;
  credentialsFile?: string;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** JSON from a file (credentials stay out of the shell history that way) or from the flag's text. */
function jsonOption(text: string | undefined, file: string | undefined, flag: string): unknown {
  const source = file === undefined ? text : readText(file);
  if (source === undefined) return undefined;
  try {
    return JSON.parse(source) as unknown;
  } catch {
    throw new UsageError(`${file ?? flag} must hold JSON, e.g. {"authToken":"…"}`);
  }
}

const credentialsOf = (options: CredentialOptions): unknown => jsonOption(options.credentials, options.credentialsFile, '--credentials');

/** The Standard Webhooks secret Earshot made, said once; nothing when the provider's own credentials were given. */
const shownOnce = (secret: string | null): string => (secret ? `\nsigning secret  ${secret}\nThe secret is shown only this once: store it now.` : '');

/** The two ways to give credentials; the file keeps them out of the shell history. */
function withCredentials(command: Command): Command {
  return command
    .option('--credentials <json>', 'the provider\'s credentials as JSON, e.g. \'{"authToken":"…"}\'')
    .addOption(new Option('--credentials-file <file>', 'or: a file holding that JSON').conflicts('credentials'));
}

/** Disable and enable: the same call, the connection's new status printed. */
function statusCommand(providers: Command, action: 'disable' | 'enable', description: string): void {
  const command = providers
    .command(action)
    .description(description)
    .argument('<id>', "the connection's id")
    .option('--json', 'the connection as JSON')
    .action(async (id: string, options: { json?: boolean }, self: Command) => {
      const connection = await clientOf(self).providers[action](id);
      if (options.json) printJson(connection);
      else say(connectionTable([connection]));
    });
  withExamples(command, [
    { what: `${action} a connection (CONNECTION_ID from "earshot providers list")`, run: `earshot providers ${action} $CONNECTION_ID` },
    { what: 'and print it as JSON', run: `earshot providers ${action} $CONNECTION_ID --json` },
  ]);
}

export function registerProviderCommands(program: Command): void {
  const providers = program
    .command('providers')
    .description("the voice providers' webhook connections: the URL to paste there, and the credentials it verifies with (providers:read, providers:write)");
  withExamples(providers, [
    { what: 'the connections', run: 'earshot providers list' },
    { what: 'a Standard Webhooks sender', run: 'earshot providers connect standard-webhooks --name support-bot' },
  ]);

  const connect = withCredentials(
    providers
      .command('connect')
      .description('connect a provider: prints the webhook URL to paste where it asks for one')
      .addArgument(new Argument('<provider>', 'the voice provider').choices(PROVIDER_NAMES))
      .requiredOption('--name <name>', 'what you call it; the agent id for providers that name none (twilio, bland)'),
  )
    .option('--mapping-file <file>', "standard-webhooks: a JSON file mapping the sender's events to Earshot's")
    .option('--json', "the API's answer as JSON")
    .action(async (provider: ProviderName, options: CredentialOptions & { name: string; mappingFile?: string; json?: boolean }, command: Command) => {
      const credentials = credentialsOf(options);
      const mapping = jsonOption(undefined, options.mappingFile, '--mapping-file');
      const body = {
        provider,
        name: options.name,
        ...(credentials === undefined ? {} : { credentials }),
        ...(mapping === undefined ? {} : { mapping }),
      } as ProviderConnectionCreateParams;
      const created = await clientOf(command).providers.connect(body);
      if (options.json) return printJson(created);
      say(`${connectionTable([created.connection])}\nPaste the webhook URL where ${provider} asks for its webhook.${shownOnce(created.secret)}`);
    });
  withExamples(connect, [
    { what: 'a Standard Webhooks sender; Earshot makes its signing secret', run: 'earshot providers connect standard-webhooks --name support-bot' },
    {
      what: 'a Twilio number for agent_support, as JSON',
      run: `earshot providers connect twilio --name agent_support --credentials '{"authToken":"twilio_auth_token_0123456789"}' --json`,
    },
  ]);

  const list = listOptions(
    providers
      .command('list')
      .description("the tenant's connections")
      .addOption(new Option('--provider <provider>', 'only this provider').choices(PROVIDER_NAMES))
      .addOption(new Option('--status <status>', 'only connections in this status').choices(CONNECTION_STATUSES)),
    200,
  ).action(async (options: ListOptions & { provider?: ProviderName; status?: (typeof CONNECTION_STATUSES)[number] }, command: Command) => {
    const query = {
      ...pageQuery(options),
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.status ? { status: options.status } : {}),
    };
    await showList(clientOf(command).providers.list(query), options, connectionTable, 'no provider connections');
  });
  withExamples(list, [
    { what: 'every connection', run: 'earshot providers list' },
    { what: 'the active Twilio ones as NDJSON', run: 'earshot providers list --provider twilio --status active --json' },
  ]);

  const get = providers
    .command('get')
    .description('one connection (never its credentials)')
    .argument('<id>', "the connection's id")
    .option('--json', 'as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const connection = await clientOf(command).providers.retrieve(id);
      if (options.json) printJson(connection);
      else say(connectionTable([connection]));
    });
  withExamples(get, [
    { what: 'one connection (CONNECTION_ID from "earshot providers list")', run: 'earshot providers get $CONNECTION_ID' },
    { what: 'as JSON', run: 'earshot providers get $CONNECTION_ID --json' },
  ]);

  const rotate = withCredentials(
    providers
      .command('rotate')
      .description('new credentials (a new secret for standard-webhooks); the previous ones still verify for the overlap')
      .argument('<id>', "the connection's id"),
  )
    .addOption(new Option('--overlap <duration>', 'how long the previous credentials keep verifying').argParser(durationArgument).default(86_400_000, '24h'))
    .option('--json', "the API's answer as JSON")
    .action(async (id: string, options: CredentialOptions & { overlap: number; json?: boolean }, command: Command) => {
      const credentials = credentialsOf(options);
      const rotation = {
        overlapSeconds: Math.round(options.overlap / 1000),
        ...(credentials === undefined ? {} : { credentials }),
      } as ProviderCredentialRotateParams;
      const rotated = await clientOf(command).providers.rotate(id, rotation);
      if (options.json) return printJson(rotated);
      say(
        `${connectionTable([rotated.connection])}\nThe previous credentials verify until ${rotated.connection.previousCredentialsValidUntil ?? 'now'}.${shownOnce(rotated.secret)}`,
      );
    });
  withExamples(rotate, [
    { what: 'a new signing secret, the old one valid for a day', run: 'earshot providers rotate $CONNECTION_ID' },
    { what: 'with an hour of overlap, as JSON', run: 'earshot providers rotate $CONNECTION_ID --overlap 1h --json' },
  ]);

  statusCommand(providers, 'disable', "stop taking the provider's deliveries: its webhook answers 403");
  statusCommand(providers, 'enable', "take the provider's deliveries again");

  const remove = providers
    .command('delete')
    .description('delete a connection: its webhook URL answers 404 from then on')
    .argument('<id>', "the connection's id")
    .option('--json', "the API's answer as JSON")
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const deleted = await clientOf(command).providers.delete(id);
      if (options.json) printJson(deleted);
      else say(`deleted ${deleted.id}: its webhook URL answers 404 from now on`);
    });
  withExamples(remove, [
    { what: 'delete a connection', run: 'earshot providers delete $CONNECTION_ID' },
    { what: 'and print the answer as JSON', run: 'earshot providers delete $CONNECTION_ID --json' },
  ]);
}
