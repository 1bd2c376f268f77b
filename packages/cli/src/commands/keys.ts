import { Option, type Command } from 'commander';
import type { APIKey, KeyCreateParams } from '@earshot/sdk';
import { countArgument, durationArgument } from '../cli/arguments';
import { clientOf } from '../cli/connection';
import { withExamples } from '../cli/examples';
import { UsageError } from '../cli/exit-codes';
import { listOptions, pageQuery, showList, type ListOptions } from '../cli/lists';
import { printJson, say, table } from '../cli/output';

/** The key records as a table for people: one row per key, the IP allowlist as `any` when empty. */
export function keyTable(keys: readonly APIKey[]): string {
  return table(
    ['ID', 'NAME', 'PREFIX', 'SCOPES', 'ENV', 'IP', 'LAST USED', '24H', 'STATUS', 'WORKSPACE', 'EXPIRES'],
    keys.map((key) => [
      key.id,
      key.name,
      `${key.prefix}…`,
      key.scopes.join('\n'),
      key.environment,
      key.ipAllowlist.length === 0 ? 'any' : key.ipAllowlist.join('\n'),
      key.lastUsedAt ?? 'never',
      String(key.usage24h),
      key.status === 'rotating' ? `rotating until ${key.previousSecretValidUntil ?? '?'}` : key.status,
      key.workspace,
      key.expiresAt ?? 'never',
    ]),
  );
}

interface CreateOptions {
  name: string;
  scopes: string;
  environment?: 'production' | 'staging';
  kind?: 'live' | 'test';
  workspace?: string;
  ip?: string[];
  expires?: string;
  expiresIn?: number;
  json?: boolean;
}

const overlapOption = () =>
  new Option('--overlap <duration>', 'how long the previous secret keeps working').argParser(durationArgument).default(86_400_000, '24h');

export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description("the tenant's API keys (a key with keys:read, keys:write)");
  withExamples(keys, [
    { what: 'the keys', run: 'earshot keys list' },
    { what: 'a read-only key for CI', run: 'earshot keys create --name ci --scopes calls:read,metrics:read' },
  ]);
  const create = keys
    .command('create')
    .description('make a key; its secret is shown once')
    .requiredOption('--name <name>', 'a label')
    .requiredOption('--scopes <a,b>', 'comma-separated scopes, e.g. calls:read,metrics:read')
    .addOption(new Option('--environment <env>', 'production or staging').choices(['production', 'staging'] as const))
    .addOption(new Option('--kind <kind>', 'live or test').choices(['live', 'test'] as const))
    .option('--workspace <name>', 'the workspace the key belongs to')
    .option('--ip <cidr...>', 'addresses the key may be used from')
    .option('--expires <iso>', 'when the key stops working')
    .addOption(new Option('--expires-in <duration>', 'or: how long from now (30d)').argParser(durationArgument).conflicts('expires'))
    .option('--json', "the API's answer as JSON")
    .action(async (options: CreateOptions, command: Command) => {
      const scopes = options.scopes
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (scopes.length === 0) throw new UsageError('--scopes names at least one scope');
      const expiresAt = options.expiresIn === undefined ? options.expires : new Date(Date.now() + options.expiresIn).toISOString();
      const created = await clientOf(command).keys.create({
        name: options.name,
        scopes: scopes as KeyCreateParams['scopes'],
        ...(options.environment ? { environment: options.environment } : {}),
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.workspace ? { workspace: options.workspace } : {}),
        ...(options.ip ? { ipAllowlist: options.ip } : {}),
        ...(expiresAt ? { expiresAt } : {}),
      });
      if (options.json) return printJson(created);
      say(`${keyTable([created.key])}\nAPI key  ${created.secret}\nThe key is shown only this once: store it now.`);
    });
  withExamples(create, [
    { what: 'a read-only key for CI', run: 'earshot keys create --name ci --scopes calls:read,metrics:read' },
    {
      what: 'a staging key that expires in 30 days, as JSON',
      run: 'earshot keys create --name trial --scopes calls:read --environment staging --expires-in 30d --json',
    },
  ]);
  const list = listOptions(
    keys
      .command('list')
      .description("the tenant's keys")
      .option('--workspace <name>', 'only this workspace')
      .addOption(new Option('--status <status>', 'only keys in this status').choices(['active', 'expired', 'revoked', 'rotating'] as const)),
    200,
  ).action(async (options: ListOptions & { workspace?: string; status?: 'active' | 'expired' | 'revoked' | 'rotating' }, command: Command) => {
    const query = {
      ...pageQuery(options),
      ...(options.workspace ? { workspace: options.workspace } : {}),
      ...(options.status ? { status: options.status } : {}),
    };
    await showList(clientOf(command).keys.list(query), options, keyTable, 'no keys');
  });
  withExamples(list, [
    { what: 'every key', run: 'earshot keys list' },
    { what: 'the active ones as NDJSON', run: 'earshot keys list --status active --json' },
  ]);
  const get = keys
    .command('get')
    .description('one key (never its secret)')
    .argument('<id>', "the key's id")
    .option('--json', 'as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const key = await clientOf(command).keys.retrieve(id);
      if (options.json) printJson(key);
      else say(keyTable([key]));
    });
  withExamples(get, [
    { what: 'one key (KEY_ID from "earshot keys list")', run: 'earshot keys get $KEY_ID' },
    { what: 'as JSON', run: 'earshot keys get $KEY_ID --json' },
  ]);
  const rotate = keys
    .command('rotate')
    .description('a new secret for the key; the previous one keeps working for the overlap')
    .argument('<id>', "the key's id")
    .addOption(overlapOption())
    .option('--json', "the API's answer as JSON")
    .action(async (id: string, options: { overlap: number; json?: boolean }, command: Command) => {
      const rotated = await clientOf(command).keys.rotate(id, { overlapSeconds: Math.round(options.overlap / 1000) });
      if (options.json) return printJson(rotated);
      say(
        `${keyTable([rotated.key])}\nnew API key  ${rotated.secret}\nThe previous key keeps working until ${rotated.key.previousSecretValidUntil ?? 'now'}. The new key is shown only this once: store it now.`,
      );
    });
  withExamples(rotate, [
    { what: 'rotate, the old secret valid for a day', run: 'earshot keys rotate $KEY_ID' },
    { what: 'with an hour of overlap, as JSON', run: 'earshot keys rotate $KEY_ID --overlap 1h --json' },
  ]);
  const revoke = keys
    .command('revoke')
    .description('revoke a key at once')
    .argument('<id>', "the key's id")
    .option('--json', 'the revoked key as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const revoked = await clientOf(command).keys.revoke(id);
      if (options.json) return printJson(revoked);
      say(`${keyTable([revoked])}\nrevoked: every process refuses the key within a second`);
    });
  withExamples(revoke, [
    { what: 'revoke a key', run: 'earshot keys revoke $KEY_ID' },
    { what: 'and print it as JSON', run: 'earshot keys revoke $KEY_ID --json' },
  ]);

  const rotateMaster = keys
    .command('rotate-master')
    .description('operator: re-wrap what EARSHOT_MASTER_KEY_PREVIOUS sealed under EARSHOT_MASTER_KEY (the database, never the log)')
    .addOption(new Option('--batch-size <rows>', 'rows per transaction').argParser(countArgument).default(500))
    .action(async (options: { batchSize: number }) => (await import('./master-key')).rotateMaster(options));
  withExamples(rotateMaster, [
    { what: 'with EARSHOT_MASTER_KEY_PREVIOUS set: re-wrap; without: check that everything opens', run: 'earshot keys rotate-master' },
    { what: 'in smaller transactions', run: 'earshot keys rotate-master --batch-size 100' },
  ]);

  const secret = program.command('secret').description('the webhook secret that signs ingest requests');
  withExamples(secret, [
    { what: 'a new secret, the old one valid for a day', run: 'earshot secret rotate' },
    { what: 'with an hour of overlap', run: 'earshot secret rotate --overlap 1h' },
  ]);
  const rotateSecret = secret
    .command('rotate')
    .description('a new webhook secret; the previous one still verifies for the overlap')
    .addOption(overlapOption())
    .option('--json', "the API's answer as JSON")
    .action(async (options: { overlap: number; json?: boolean }, command: Command) => {
      const rotated = await clientOf(command).webhookSecret.rotate({ overlapSeconds: Math.round(options.overlap / 1000) });
      if (options.json) return printJson(rotated);
      say(`webhook secret  ${rotated.webhookSecret}`);
      say(`The previous secret still verifies until ${rotated.previousValidUntil}. The new one is shown only this once: store it now.`);
    });
  withExamples(rotateSecret, [
    { what: 'rotate with a day of overlap', run: 'earshot secret rotate' },
    { what: 'with an hour of overlap, as JSON', run: 'earshot secret rotate --overlap 1h --json' },
  ]);
}
