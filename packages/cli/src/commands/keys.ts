import { parseArgs } from 'node:util';
import Table from 'cli-table3';
import ms, { type StringValue } from 'ms';
import { ApiKeyAnswerSchema, ApiKeyListSchema, IssuedApiKeySchema, type ApiKeyRecord } from '@earshot/contracts';
import type { CommandRunner } from '../command-runner';
import { tenantApi } from '../tenant-api';

const USAGE = [
  'earshot keys create --name N --scopes a,b [--environment production|staging] [--kind live|test] [--workspace W] [--ip CIDR]... [--expires ISO | --expires-in 30d]',
  'earshot keys list [--workspace W] [--status active|expired|revoked|rotating] [--limit N]',
  'earshot keys get <id>',
  'earshot keys rotate <id> [--overlap 24h]',
  'earshot keys revoke <id>',
  '  each with [--json] [--url U] [--key K] (the key from EARSHOT_API_KEY when --key is absent)',
].join('\n  ');

const OPTIONS = {
  json: { type: 'boolean', default: false },
  url: { type: 'string' },
  key: { type: 'string' },
  name: { type: 'string' },
  scopes: { type: 'string' },
  environment: { type: 'string' },
  kind: { type: 'string' },
  workspace: { type: 'string' },
  ip: { type: 'string', multiple: true },
  expires: { type: 'string' },
  'expires-in': { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  overlap: { type: 'string', default: '24h' },
} as const;

/** A duration such as `90s`, `15m`, `24h` or `7d`, in milliseconds. */
export function duration(text: string, flag: string): number {
  const value = ms(text as StringValue);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${flag} must be a duration such as 90s, 15m, 24h or 7d`);
  return value;
}

/** The key records as a table for people: one row per key, the IP allowlist as `any` when empty. */
export function keyTable(keys: readonly ApiKeyRecord[]): string {
  const table = new Table({
    head: ['ID', 'NAME', 'PREFIX', 'SCOPES', 'ENV', 'IP', 'LAST USED', '24H', 'STATUS', 'WORKSPACE', 'EXPIRES'],
    style: { head: [], border: [] },
  });
  for (const key of keys) {
    table.push([
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
    ]);
  }
  return table.toString();
}

/** `earshot keys create|list|get|rotate|revoke`: the tenant's API keys through the HTTP API. */
export const keysCommand: CommandRunner = {
  async run(args) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
    const api = tenantApi({ url: values.url, key: values.key });
    const idOf = () => {
      const [id] = positionals;
      if (!id) throw new Error(`the key's id is required: earshot keys ${action ?? ''} <id>`);
      return encodeURIComponent(id);
    };
    const show = (text: string, json: unknown) => console.log(values.json ? JSON.stringify(json, null, 2) : text);

    switch (action) {
      case 'create': {
        if (!values.name || !values.scopes) throw new Error(`--name and --scopes are required\nusage: ${USAGE}`);
        if (values.expires && values['expires-in']) throw new Error('give --expires or --expires-in, not both');
        const expiresAt = values['expires-in'] ? new Date(Date.now() + duration(values['expires-in'], '--expires-in')).toISOString() : values.expires;
        const created = await api.request(IssuedApiKeySchema, 'POST', '/keys', {
          name: values.name,
          scopes: values.scopes
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
          ...(values.environment ? { environment: values.environment } : {}),
          ...(values.kind ? { kind: values.kind } : {}),
          ...(values.workspace ? { workspace: values.workspace } : {}),
          ...(values.ip ? { ipAllowlist: values.ip } : {}),
          ...(expiresAt ? { expiresAt } : {}),
        });
        show(`${keyTable([created.key])}\nAPI key  ${created.secret}\nThe key is shown only this once: store it now.`, created);
        return 0;
      }
      case 'list': {
        const query = new URLSearchParams({
          ...(values.workspace ? { workspace: values.workspace } : {}),
          ...(values.status ? { status: values.status } : {}),
          limit: values.limit ?? '200',
        });
        const page = await api.request(ApiKeyListSchema, 'GET', `/keys?${query.toString()}`);
        show(page.items.length === 0 ? 'no keys' : keyTable(page.items), page);
        return 0;
      }
      case 'get': {
        const found = await api.request(ApiKeyAnswerSchema, 'GET', `/keys/${idOf()}`);
        show(keyTable([found.key]), found);
        return 0;
      }
      case 'rotate': {
        const overlapSeconds = Math.round(duration(values.overlap, '--overlap') / 1000);
        const rotated = await api.request(IssuedApiKeySchema, 'POST', `/keys/${idOf()}/rotate`, { overlapSeconds });
        show(
          `${keyTable([rotated.key])}\nnew API key  ${rotated.secret}\nThe previous key keeps working until ${rotated.key.previousSecretValidUntil ?? 'now'}. The new key is shown only this once: store it now.`,
          rotated,
        );
        return 0;
      }
      case 'revoke': {
        const revoked = await api.request(ApiKeyAnswerSchema, 'POST', `/keys/${idOf()}/revoke`);
        show(`${keyTable([revoked.key])}\nrevoked: every process refuses the key within a second`, revoked);
        return 0;
      }
      default:
        throw new Error(`unknown action "${action ?? ''}"\nusage: ${USAGE}`);
    }
  },
};
