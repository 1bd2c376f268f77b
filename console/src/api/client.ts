/**
 * The console's one way to the API: typed calls over openapi-fetch and the generated
 * OpenAPI types. Pages go through `Api` only, so this module can switch to @earshot/sdk
 * without a page changing.
 */
import createClient from 'openapi-fetch';
import type { paths } from '@earshot/sdk';
import type { AlertRuleChange, CallQuery, IncidentChange, MetricQuery, NewAlertRule, NewApiKey } from './types';

/** An API answer that is not a success, in the API's one Error shape. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

function failure(status: number, error: unknown): ApiFailure {
  const body = typeof error === 'object' && error !== null ? (error as { error?: unknown; code?: unknown }) : {};
  const message = typeof body.error === 'string' ? body.error : `the API answered ${status}`;
  return new ApiFailure(status, typeof body.code === 'string' ? body.code : 'UNKNOWN', message);
}

/** openapi-fetch's result, turned into the data or a thrown ApiFailure. */
async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) throw failure(response.status, error);
  return data;
}

/** A fresh idempotency key per write, so a retried click is applied once. */
const idempotency = () => ({ 'idempotency-key': crypto.randomUUID() });

export function createApi(key: string, origin: string = location.origin) {
  const client = createClient<paths>({ baseUrl: origin, headers: { authorization: `Bearer ${key}` } });
  return {
    key,
    origin,
    client,
    calls: (query: CallQuery) => must(client.GET('/api/v1/calls', { params: { query } })),
    call: (id: string) => must(client.GET('/api/v1/calls/{id}', { params: { path: { id } } })).then((d) => d.call),
    outcomes: (callId: string) => must(client.GET('/api/v1/outcomes', { params: { query: { callId, limit: 100 } } })).then((d) => d.items),
    realtime: () => must(client.GET('/api/v1/realtime')).then((d) => d.live),
    metric: (query: MetricQuery) => must(client.GET('/api/v1/metrics', { params: { query } })),
    incidents: () => must(client.GET('/api/v1/incidents', { params: { query: { limit: 200 } } })).then((d) => d.items),
    changeIncident: (id: string, change: IncidentChange) => must(client.PATCH('/api/v1/incidents/{id}', { params: { path: { id } }, body: change })),
    alerts: () => must(client.GET('/api/v1/alerts', { params: { query: { limit: 200 } } })).then((d) => d.items),
    rules: () => must(client.GET('/api/v1/alerts/rules', { params: { query: { limit: 200 } } })).then((d) => d.items),
    createRule: (rule: NewAlertRule) => must(client.POST('/api/v1/alerts/rules', { params: { header: idempotency() }, body: rule })),
    changeRule: (id: string, change: AlertRuleChange) => must(client.PATCH('/api/v1/alerts/rules/{id}', { params: { path: { id } }, body: change })),
    deployments: () => must(client.GET('/api/v1/deployments', { params: { query: { limit: 200 } } })).then((d) => d.items),
    impact: (id: string) => must(client.GET('/api/v1/deployments/{id}/impact', { params: { path: { id } } })),
    keys: () => must(client.GET('/api/v1/keys', { params: { query: { limit: 200 } } })).then((d) => d.items),
    createKey: (key: NewApiKey) => must(client.POST('/api/v1/keys', { body: key })),
    rotateKey: (id: string, overlapSeconds: number) => must(client.POST('/api/v1/keys/{id}/rotate', { params: { path: { id } }, body: { overlapSeconds } })),
    revokeKey: (id: string) => must(client.POST('/api/v1/keys/{id}/revoke', { params: { path: { id } } })),
    rotateWebhookSecret: (overlapSeconds: number) => must(client.POST('/api/v1/webhook-secret/rotate', { body: { overlapSeconds } })),
    usage: () => must(client.GET('/api/v1/usage')),
    invoices: () => must(client.GET('/api/v1/billing/invoices')).then((d) => d.items),
    /** One POST /graphql: several reads in one round trip. */
    graphql: async <T>(query: string, variables: Record<string, unknown>): Promise<T> => {
      const response = await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
      if (!response.ok && !body.data) throw failure(response.status, body);
      const refused = body.errors?.[0];
      if (!body.data) throw new ApiFailure(response.status, refused?.extensions?.code ?? 'UNKNOWN', refused?.message ?? 'GraphQL answered nothing');
      return body.data;
    },
  };
}

export type Api = ReturnType<typeof createApi>;
