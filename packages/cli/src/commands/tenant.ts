import { parseArgs } from 'node:util';
import { loadConfig } from '@earshot/config';
import type { Command } from '../main';
import { withOperatorToken } from '../demo/operator-token';

/**
 * `earshot tenant create --name N [--url U] [--json]`: creates a tenant
 * through the operator API (POST /api/v1/admin/tenants) with the token in
 * EARSHOT_ADMIN_TOKEN (else the one an embedded start keeps in the data
 * directory), and prints its API key and webhook secret, shown once.
 */
export const tenantCommand: Command = {
  name: 'tenant',
  summary: 'operator: tenant create --name N [--url U] [--json] (token from EARSHOT_ADMIN_TOKEN)',
  async run(args) {
    const [action, ...rest] = args;
    if (action !== 'create') throw new Error(`unknown action "${action ?? ''}"; usage: earshot tenant create --name N [--url U] [--json]`);
    const { values } = parseArgs({
      args: rest,
      options: { name: { type: 'string' }, url: { type: 'string' }, json: { type: 'boolean', default: false } },
      strict: true,
    });
    if (!values.name) throw new Error('--name is required');
    const { config } = withOperatorToken(loadConfig(), { generate: false });
    if (!config.EARSHOT_ADMIN_TOKEN) throw new Error('EARSHOT_ADMIN_TOKEN is not set (nor kept in the data directory by an embedded start): the operator API needs it');
    const base = values.url ?? `http://127.0.0.1:${config.PORT}`;
    const response = await fetch(new URL('/api/v1/admin/tenants', base), {
      method: 'POST',
      headers: { authorization: `Bearer ${config.EARSHOT_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: values.name }),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`${base} answered ${response.status}: ${text}`);
    if (values.json) {
      console.log(text);
      return 0;
    }
    const created = JSON.parse(text) as { tenant: { id: string; name: string }; apiKey: string; webhookSecret: string };
    console.log(`tenant          ${created.tenant.name} (${created.tenant.id})`);
    console.log(`API key         ${created.apiKey}`);
    console.log(`webhook secret  ${created.webhookSecret}`);
    console.log('The key and the secret are shown only this once: store them now.');
    return 0;
  },
};
