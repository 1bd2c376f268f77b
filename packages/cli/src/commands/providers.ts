import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Table from 'cli-table3';
import {
  ProviderConnectionAnswerSchema,
  ProviderConnectionDeletedSchema,
  ProviderConnectionIssuedSchema,
  ProviderConnectionListSchema,
  type ProviderConnection,
} from '@earshot/contracts';
import type { CommandRunner } from '../command-runner';
import { tenantApi } from '../tenant-api';
import { duration } from './keys';

const USAGE = [
  'earshot providers connect <retell|vapi|twilio|elevenlabs|bland|standard-webhooks> --name N [--credentials-file F | --credentials JSON] [--mapping-file F]',
  'earshot providers list [--provider P] [--status active|disabled] [--limit N]',
  'earshot providers get <id>',
  'earshot providers rotate <id> [--credentials-file F | --credentials JSON] [--overlap 24h]',
  'earshot providers disable|enable|delete <id>',
  '  each with [--json] [--url U] [--key K] (the key from EARSHOT_API_KEY when --key is absent)',
].join('\n  ');

const OPTIONS = {
  json: { type: 'boolean', default: false },
  url: { type: 'string' },
  key: { type: 'string' },
  name: { type: 'string' },
  credentials: { type: 'string' },
  'credentials-file': { type: 'string' },
  'mapping-file': { type: 'string' },
  provider: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  overlap: { type: 'string', default: '24h' },
} as const;

/** The connections as a table for people: where each provider posts, never its credentials. */
export function connectionTable(connections: readonly ProviderConnection[]): string {
  const table = new Table({ head: ['ID', 'PROVIDER', 'NAME', 'STATUS', 'WEBHOOK URL', 'ROTATED'], style: { head: [], border: [] } });
  for (const c of connections) {
    const rotated = c.previousCredentialsValidUntil ? `previous valid until ${c.previousCredentialsValidUntil}` : (c.credentialsRotatedAt ?? 'never');
    table.push([c.id, c.provider, c.name, c.status, c.webhookUrl, rotated]);
  }
  return table.toString();
}

/** JSON from a file (credentials stay out of the shell history that way) or from the flag's text. */
function jsonOption(text: string | undefined, file: string | undefined, flag: string): unknown {
  const source = file === undefined ? text : readFileSync(file, 'utf8');
  if (source === undefined) return undefined;
  try {
    return JSON.parse(source) as unknown;
  } catch {
    throw new Error(`${file ?? flag} must hold JSON, e.g. {"apiKey":"key_…"}`);
  }
}

/** `earshot providers connect|list|get|rotate|disable|enable|delete`: the tenant's provider connections through the HTTP API. */
export const providersCommand: CommandRunner = {
  async run(args) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
    const api = tenantApi({ url: values.url, key: values.key });
    const idOf = () => {
      const [id] = positionals;
      if (!id) throw new Error(`the connection's id is required: earshot providers ${action ?? ''} <id>`);
      return encodeURIComponent(id);
    };
    const show = (text: string, json: unknown) => console.log(values.json ? JSON.stringify(json, null, 2) : text);
    const credentials = () => jsonOption(values.credentials, values['credentials-file'], '--credentials');
    const shownOnce = (secret: string | null) => (secret ? `\nsigning secret  ${secret}\nThe secret is shown only this once: store it now.` : '');

    switch (action) {
      case 'connect': {
        const [provider] = positionals;
        if (!provider || !values.name) throw new Error(`the provider and --name are required\nusage: ${USAGE}`);
        const given = credentials();
        const mapping = jsonOption(undefined, values['mapping-file'], '--mapping-file');
        const body = { provider, name: values.name, ...(given === undefined ? {} : { credentials: given }), ...(mapping ? { mapping } : {}) };
        const created = await api.request(ProviderConnectionIssuedSchema, 'POST', '/providers', body);
        show(`${connectionTable([created.connection])}\nPaste the webhook URL where ${provider} asks for its webhook.${shownOnce(created.secret)}`, created);
        return 0;
      }
      case 'list': {
        const query = new URLSearchParams({
          ...(values.provider ? { provider: values.provider } : {}),
          ...(values.status ? { status: values.status } : {}),
          limit: values.limit ?? '200',
        });
        const page = await api.request(ProviderConnectionListSchema, 'GET', `/providers?${query.toString()}`);
        show(page.items.length === 0 ? 'no provider connections' : connectionTable(page.items), page);
        return 0;
      }
      case 'get': {
        const found = await api.request(ProviderConnectionAnswerSchema, 'GET', `/providers/${idOf()}`);
        show(connectionTable([found.connection]), found);
        return 0;
      }
      case 'rotate': {
        const overlapSeconds = Math.round(duration(values.overlap, '--overlap') / 1000);
        const given = credentials();
        const rotated = await api.request(ProviderConnectionIssuedSchema, 'POST', `/providers/${idOf()}/rotate`, {
          overlapSeconds,
          ...(given === undefined ? {} : { credentials: given }),
        });
        show(
          `${connectionTable([rotated.connection])}\nThe previous credentials verify until ${rotated.connection.previousCredentialsValidUntil ?? 'now'}.${shownOnce(rotated.secret)}`,
          rotated,
        );
        return 0;
      }
      case 'disable':
      case 'enable': {
        const changed = await api.request(ProviderConnectionAnswerSchema, 'POST', `/providers/${idOf()}/${action}`);
        show(connectionTable([changed.connection]), changed);
        return 0;
      }
      case 'delete': {
        const deleted = await api.request(ProviderConnectionDeletedSchema, 'DELETE', `/providers/${idOf()}`);
        show(`deleted ${deleted.id}: its webhook URL answers 404 from now on`, deleted);
        return 0;
      }
      default:
        throw new Error(`unknown action "${action ?? ''}"\nusage: ${USAGE}`);
    }
  },
};
