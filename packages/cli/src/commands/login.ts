import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { Earshot, PermissionDeniedError, type APIKey } from '@earshot/sdk';
import { connectionOf, type GlobalOptions } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { UsageError } from '../cli/exit-codes';
import { printJson, say, table } from '../cli/output';
import { DEFAULT_PROFILE, writeProfile } from '../cli/profiles';

/** Asks on the terminal for what was not given; a script must give it, so without a terminal that is a usage error. */
async function ask(question: string, given: string | undefined, flag: string): Promise<string> {
  if (given) return given;
  if (!process.stdin.isTTY) throw new UsageError(`${flag} is required when no terminal is attached`);
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await terminal.question(question)).trim();
    if (!answer) throw new UsageError(`${flag} is required`);
    return answer;
  } finally {
    terminal.close();
  }
}

/** The key's own record, found by its prefix; undefined when the key may not list keys (no keys:read). */
async function ownKey(client: Earshot, apiKey: string): Promise<APIKey | undefined> {
  try {
    for await (const key of client.keys.list({ limit: 200 })) if (apiKey.startsWith(key.prefix) && key.status !== 'revoked') return key;
  } catch (error) {
    if (error instanceof PermissionDeniedError) return undefined;
    throw error;
  }
  return undefined;
}

export function registerLoginCommands(program: Command): void {
  const login = program
    .command('login')
    .description('check a base URL and API key against the API and store them as a profile (asks for what is not given)')
    .action(async (_options: object, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const baseUrl = await ask('Earshot URL (e.g. http://127.0.0.1:8080): ', globals.url, '--url');
      const apiKey = await ask('API key: ', globals.key, '--key');
      const tenant = await new Earshot({ apiKey, baseUrl, maxRetries: 1 }).tenant.retrieve();
      const name = globals.profile ?? DEFAULT_PROFILE;
      const file = writeProfile(name, { baseUrl, apiKey, tenantName: tenant.name });
      say(`Logged in to ${tenant.name} (${tenant.id}) at ${baseUrl}; profile "${name}" stored in ${file}`);
    });
  withExamples(login, [
    { what: 'log in (asked for the URL and key when not given)', run: 'earshot login --url $EARSHOT_BASE_URL --key $EARSHOT_API_KEY' },
    { what: 'store a second profile without questions', run: 'earshot login --profile staging --url $EARSHOT_BASE_URL --key $EARSHOT_API_KEY' },
  ]);

  const whoami = program
    .command('whoami')
    .description('the tenant, key name, scopes and environment the commands act as')
    .option('--json', 'as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const connection = connectionOf(command.optsWithGlobals<GlobalOptions>());
      const client = new Earshot({ apiKey: connection.apiKey, baseUrl: connection.baseUrl, maxRetries: 1 });
      const tenant = await client.tenant.retrieve();
      const key = await ownKey(client, connection.apiKey);
      const answer = {
        baseUrl: client.baseUrl,
        source: connection.source,
        tenant: { id: tenant.id, name: tenant.name, status: tenant.status },
        key: key ? { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, environment: key.environment, workspace: key.workspace } : null,
      };
      if (options.json) return printJson(answer);
      const unknown = 'unknown: this key may not read keys (keys:read)';
      say(
        table(
          ['', ''],
          [
            ['url', answer.baseUrl],
            ['tenant', `${tenant.name} (${tenant.id}), ${tenant.status}`],
            ['key', key ? `${key.name} (${key.prefix}…)` : unknown],
            ['scopes', key ? key.scopes.join(', ') : unknown],
            ['environment', key ? key.environment : unknown],
            ['from', connection.source],
          ],
        ),
      );
    });
  withExamples(whoami, [
    { what: 'who the commands act as', run: 'earshot whoami' },
    { what: 'as JSON', run: 'earshot whoami --json' },
  ]);
}
