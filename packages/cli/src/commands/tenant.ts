import type { z } from 'zod';
import { loadConfig } from '@earshot/config';
import { TenantAnswerSchema, TenantDeletedSchema, TenantListSchema, type TenantSummary } from '@earshot/contracts';
import { withOperatorToken } from '../demo/operator-token';
import { localOrigin } from '../local-instance';
import { UsageError } from '../cli/exit-codes';
import { say, table } from '../cli/output';

function tenantTable(tenants: readonly TenantSummary[]): string {
  return table(
    ['ID', 'NAME', 'STATUS', 'ACTIVE KEYS', 'CREATED', 'SUSPENDED'],
    tenants.map((t) => [t.id, t.name, t.status, String(t.activeKeys), t.createdAt, t.suspendedAt ?? '']),
  );
}

/**
 * `earshot tenant create|list|suspend|resume|delete`: the operator API
 * (/api/v1/admin/tenants) with the token in EARSHOT_ADMIN_TOKEN (else the
 * one an embedded start keeps in the data directory). `create` prints the
 * tenant's API key and webhook secret, shown once.
 */
export type TenantAction = 'create' | 'list' | 'suspend' | 'resume' | 'delete';

export interface TenantOptions {
  name?: string;
  status?: string;
  url?: string;
  json?: boolean;
}

export async function tenantAction(action: TenantAction, id: string | undefined, values: TenantOptions): Promise<void> {
  const { config } = withOperatorToken(loadConfig(), { generate: false });
  if (!config.EARSHOT_ADMIN_TOKEN)
    throw new Error('EARSHOT_ADMIN_TOKEN is not set (nor kept in the data directory by an embedded start): the operator API needs it');
  const base = values.url ?? localOrigin(config);
  const operator = async (method: 'GET' | 'POST' | 'DELETE', path: string, status: number, body?: unknown): Promise<string> => {
    const response = await fetch(new URL(`/api/v1/admin/tenants${path}`, base), {
      method,
      headers: { authorization: `Bearer ${config.EARSHOT_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status !== status) throw new Error(`${base} answered ${response.status}: ${text}`);
    return text;
  };
  const idOf = () => {
    if (!id) throw new UsageError(`the tenant's id is required: earshot tenant ${action} <id>`);
    return `/${encodeURIComponent(id)}`;
  };
  const show = <S extends z.ZodType>(schema: S, text: string, human: (answer: z.output<S>) => string) => {
    say(values.json ? text : human(schema.parse(JSON.parse(text))));
  };

  switch (action) {
    case 'create': {
      if (!values.name) throw new UsageError('--name is required');
      const text = await operator('POST', '', 201, { name: values.name });
      if (values.json) return say(text);
      const created = JSON.parse(text) as { tenant: { id: string; name: string }; apiKey: string; webhookSecret: string };
      say(`tenant          ${created.tenant.name} (${created.tenant.id})`);
      say(`API key         ${created.apiKey}`);
      say(`webhook secret  ${created.webhookSecret}`);
      return say('The key and the secret are shown only this once: store them now.');
    }
    case 'list':
      return show(TenantListSchema, await operator('GET', `?limit=200${values.status ? `&status=${encodeURIComponent(values.status)}` : ''}`, 200), (page) =>
        page.items.length === 0 ? 'no tenants' : tenantTable(page.items),
      );
    case 'suspend':
      return show(
        TenantAnswerSchema,
        await operator('POST', `${idOf()}/suspend`, 200),
        (answer) => `${tenantTable([answer.tenant])}\nsuspended: its keys are refused everywhere within a second`,
      );
    case 'resume':
      return show(TenantAnswerSchema, await operator('POST', `${idOf()}/resume`, 200), (answer) => tenantTable([answer.tenant]));
    case 'delete':
      return show(
        TenantDeletedSchema,
        await operator('DELETE', idOf(), 200),
        (answer) => `deleted tenant ${answer.id} and ${answer.rowsDeleted} rows of its data`,
      );
  }
}
