import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { CURRENT_EVENT_VERSION } from '@earshot/contracts';
import { callScript, recordFigure, startEarshot, waitUntilCaughtUp, type EarshotTenant, type TestEarshot } from '@earshot/testing';

/** Tenant A's resources, one of each kind a path parameter names. */
interface Owned {
  tenantId: string;
  callId: string;
  incidentId: string;
  ruleId: string;
  deploymentId: string;
  keyId: string;
  connectionId: string;
}

/**
 * How an operation with a path parameter is tried as tenant B against tenant
 * A's resource. `tenant`: B's key (every scope) is answered 404, exactly as
 * for an id that does not exist. `operator`: an EARSHOT_ADMIN_TOKEN route, where
 * any tenant's key is refused (401) before an id is looked at.
 * `connection`: the provider webhook, which takes no key: B's delivery,
 * signed with B's own connection's secret, is refused (401) at A's URL.
 */
type Fixture =
  | { kind: 'tenant'; path: (a: Owned) => string; body?: unknown }
  | { kind: 'operator'; path: (a: Owned) => string; body?: unknown }
  | { kind: 'connection'; path: (a: Owned) => string };

/**
 * Every operation of the OpenAPI document with a path parameter, keyed as the
 * document names it. The test fails when the document has one this table
 * lacks (a new route needs its fixture here) or this table one it lacks.
 */
const FIXTURES: Record<string, Fixture> = {
  'GET /api/v1/calls/{id}': { kind: 'tenant', path: (a) => `/api/v1/calls/${a.callId}` },
  'DELETE /api/v1/calls/{id}': { kind: 'tenant', path: (a) => `/api/v1/calls/${a.callId}?reason=another%20tenant%20asks` },
  'PATCH /api/v1/incidents/{id}': { kind: 'tenant', path: (a) => `/api/v1/incidents/${a.incidentId}`, body: { status: 'resolved' } },
  'GET /api/v1/alerts/rules/{id}': { kind: 'tenant', path: (a) => `/api/v1/alerts/rules/${a.ruleId}` },
  'PATCH /api/v1/alerts/rules/{id}': { kind: 'tenant', path: (a) => `/api/v1/alerts/rules/${a.ruleId}`, body: { threshold: 5 } },
  'DELETE /api/v1/alerts/rules/{id}': { kind: 'tenant', path: (a) => `/api/v1/alerts/rules/${a.ruleId}` },
  'GET /api/v1/deployments/{id}': { kind: 'tenant', path: (a) => `/api/v1/deployments/${a.deploymentId}` },
  'GET /api/v1/deployments/{id}/impact': { kind: 'tenant', path: (a) => `/api/v1/deployments/${a.deploymentId}/impact` },
  'GET /api/v1/keys/{id}': { kind: 'tenant', path: (a) => `/api/v1/keys/${a.keyId}` },
  'POST /api/v1/keys/{id}/rotate': { kind: 'tenant', path: (a) => `/api/v1/keys/${a.keyId}/rotate`, body: {} },
  'POST /api/v1/keys/{id}/revoke': { kind: 'tenant', path: (a) => `/api/v1/keys/${a.keyId}/revoke`, body: {} },
  'GET /api/v1/providers/{id}': { kind: 'tenant', path: (a) => `/api/v1/providers/${a.connectionId}` },
  'POST /api/v1/providers/{id}/rotate': { kind: 'tenant', path: (a) => `/api/v1/providers/${a.connectionId}/rotate`, body: { overlapSeconds: 60 } },
  'POST /api/v1/providers/{id}/disable': { kind: 'tenant', path: (a) => `/api/v1/providers/${a.connectionId}/disable`, body: {} },
  'POST /api/v1/providers/{id}/enable': { kind: 'tenant', path: (a) => `/api/v1/providers/${a.connectionId}/enable`, body: {} },
  'DELETE /api/v1/providers/{id}': { kind: 'tenant', path: (a) => `/api/v1/providers/${a.connectionId}` },
  'POST /api/v1/webhooks/providers/{provider}/{connectionId}': {
    kind: 'connection',
    path: (a) => `/api/v1/webhooks/providers/standard-webhooks/${a.connectionId}`,
  },
  'GET /api/v1/admin/tenants/{id}': { kind: 'operator', path: (a) => `/api/v1/admin/tenants/${a.tenantId}` },
  'DELETE /api/v1/admin/tenants/{id}': { kind: 'operator', path: (a) => `/api/v1/admin/tenants/${a.tenantId}` },
  'POST /api/v1/admin/tenants/{id}/suspend': { kind: 'operator', path: (a) => `/api/v1/admin/tenants/${a.tenantId}/suspend`, body: {} },
  'POST /api/v1/admin/tenants/{id}/resume': { kind: 'operator', path: (a) => `/api/v1/admin/tenants/${a.tenantId}/resume`, body: {} },
  'PUT /api/v1/admin/tenants/{id}/plan': { kind: 'operator', path: (a) => `/api/v1/admin/tenants/${a.tenantId}/plan`, body: { planId: 'free' } },
  'GET /api/v1/admin/tenants/{id}/data-settings': { kind: 'operator', path: (a) => `/api/v1/admin/tenants/${a.tenantId}/data-settings` },
  'PUT /api/v1/admin/tenants/{id}/data-settings': {
    kind: 'operator',
    path: (a) => `/api/v1/admin/tenants/${a.tenantId}/data-settings`,
    body: { abandonAfterMs: null, retention: {} },
  },
  'GET /api/v1/admin/plans/{planId}/retention': { kind: 'operator', path: () => '/api/v1/admin/plans/default/retention' },
  'PUT /api/v1/admin/plans/{planId}/retention': { kind: 'operator', path: () => '/api/v1/admin/plans/default/retention', body: {} },
  'GET /api/v1/admin/dead-letters/{id}': { kind: 'operator', path: (a) => `/api/v1/admin/dead-letters/${a.callId}` },
  'POST /api/v1/admin/dead-letters/{id}/replay': { kind: 'operator', path: (a) => `/api/v1/admin/dead-letters/${a.callId}/replay`, body: {} },
};

interface Answer {
  status: number;
  body: { ok?: boolean; code?: string; [field: string]: unknown };
}

/**
 * Broken object-level authorization, tried on every operation the live
 * OpenAPI document lists with a path parameter: tenant B, holding every
 * scope, names tenant A's resources and gets 404 (as for an id that does not
 * exist), never 403, 200 or a 5xx; afterwards A reads each resource as it
 * left it, so the ids were real and B changed nothing.
 */
describe('every route with a path parameter, as another tenant', () => {
  let earshot: TestEarshot;
  let a: EarshotTenant;
  let b: EarshotTenant;
  let owned: Owned;
  let bConnection: { id: string; secret: string };

  const send = async (method: string, path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(`${earshot.origin}${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(text === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(text === undefined ? {} : { body: text }),
    });
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  };
  const created = async (answer: Promise<Answer>): Promise<Answer['body']> => {
    const { status, body } = await answer;
    expect(status, JSON.stringify(body)).toBe(201);
    return body;
  };

  /** A Standard Webhooks delivery of one call.started, signed by the standardwebhooks library with `secret`. */
  const delivery = (secret: string, messageId: string) => {
    const body = JSON.stringify([
      { type: 'call.started', version: CURRENT_EVENT_VERSION, occurred_at: new Date().toISOString(), call: { provider_call_id: messageId }, data: {} },
    ]);
    const at = new Date();
    const headers = {
      'webhook-id': messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(messageId, at, body),
    };
    return { body, headers };
  };

  beforeAll(async () => {
    earshot = await startEarshot('bola');
    a = await earshot.createTenant('Tenant A');
    b = await earshot.createTenant('Tenant B');
    await earshot.project(callScript({ tenant: a.id, providerCallId: 'bola-call', turns: 1, startMs: Date.now() - 120_000 }));
    const incident = await created(send('POST', '/api/v1/incidents', a.apiKey, { title: 'A’s incident', severity: 'low' }));
    await created(
      send('POST', '/api/v1/alerts/rules', a.apiKey, {
        id: 'bola-rule',
        name: 'A’s rule',
        metric: 'latency.total_ms.p95',
        comparison: 'gt',
        threshold: 1_200,
        windowMs: 300_000,
        forMs: 0,
        severity: 'info',
      }),
    );
    const deployment = await created(
      send('POST', '/api/v1/deployments', a.apiKey, { agent: 'agent_support', version: 'v1', deployedAt: new Date().toISOString() }),
    );
    const connection = (await created(send('POST', '/api/v1/providers', a.apiKey, { provider: 'standard-webhooks', name: 'A’s bot' }))) as {
      connection: { id: string };
    };
    const mine = (await created(send('POST', '/api/v1/providers', b.apiKey, { provider: 'standard-webhooks', name: 'B’s bot' }))) as {
      connection: { id: string };
      secret: string;
    };
    bConnection = { id: mine.connection.id, secret: mine.secret };
    await waitUntilCaughtUp(earshot.runtime.database(), earshot.runtime.log());
    const calls = (await send('GET', '/api/v1/calls', a.apiKey)).body.items as { id: string }[];
    const keys = (await send('GET', '/api/v1/keys', a.apiKey)).body.items as { id: string }[];
    owned = {
      tenantId: a.id,
      callId: calls[0]?.id ?? 'no call',
      incidentId: incident.id as string,
      ruleId: 'bola-rule',
      deploymentId: deployment.id as string,
      keyId: keys[0]?.id ?? 'no key',
      connectionId: connection.connection.id,
    };
  }, 300_000);

  afterAll(async () => earshot?.stop());

  it('answers 404 to tenant B for tenant A’s id on every /{id} route of the OpenAPI document, and A finds each unchanged', async ({ task }) => {
    const description = (await (await fetch(`${earshot.origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
    const operations = Object.entries(description.paths)
      .filter(([path]) => path.includes('{'))
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((method) => METHODS.includes(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
    expect(operations.length).toBeGreaterThan(20);
    // A route with a path parameter that this table does not know fails here rather than going untried.
    expect(Object.keys(FIXTURES).sort()).toEqual([...operations].sort());

    const answers: string[] = [];
    const expected: string[] = [];
    for (const operation of operations) {
      const fixture = FIXTURES[operation];
      if (!fixture) throw new Error(`${operation} has no fixture`);
      const method = operation.slice(0, operation.indexOf(' '));
      const path = fixture.path(owned);
      if (fixture.kind === 'connection') {
        // Signed correctly, but with B's own connection's secret.
        const { body, headers } = delivery(bConnection.secret, 'msg_bola_1');
        const answer = await send(method, path, undefined, body, headers);
        answers.push(`${operation} ${answer.status} ${answer.body.code}`);
        expected.push(`${operation} 401 UNAUTHORIZED`);
        continue;
      }
      const answer = await send(method, path, b.apiKey, fixture.body);
      answers.push(`${operation} ${answer.status} ${answer.body.code}`);
      expected.push(fixture.kind === 'tenant' ? `${operation} 404 NOT_FOUND` : `${operation} 401 UNAUTHORIZED`);
    }
    expect(answers).toEqual(expected);

    // The same delivery at B's own URL is taken: the signature was good, only the connection was not B's.
    const own = delivery(bConnection.secret, 'msg_bola_2');
    const taken = await send('POST', `/api/v1/webhooks/providers/standard-webhooks/${bConnection.id}`, undefined, own.body, own.headers);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);

    // A's resources were real and B's attempts changed none of them.
    await waitUntilCaughtUp(earshot.runtime.database(), earshot.runtime.log());
    const read = async (path: string) => {
      const answer = await send('GET', path, a.apiKey);
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
      return answer.body;
    };
    expect(await read(`/api/v1/calls/${owned.callId}`)).toMatchObject({ ok: true });
    const incidents = (await read('/api/v1/incidents')).items as { id: string; status: string }[];
    expect(incidents.find((incident) => incident.id === owned.incidentId)).toMatchObject({ status: 'open' });
    expect(await read(`/api/v1/alerts/rules/${owned.ruleId}`)).toMatchObject({ rule: { threshold: 1_200 } });
    expect(await read(`/api/v1/deployments/${owned.deploymentId}`)).toMatchObject({ ok: true });
    expect(await read(`/api/v1/deployments/${owned.deploymentId}/impact`)).toMatchObject({ ok: true });
    expect(await read(`/api/v1/keys/${owned.keyId}`)).toMatchObject({ key: { status: 'active', previousSecretValidUntil: null } });
    expect(await read(`/api/v1/providers/${owned.connectionId}`)).toMatchObject({ connection: { status: 'active', previousCredentialsValidUntil: null } });
    expect(await read('/api/v1/tenant')).toMatchObject({ ok: true });

    const byKind = (kind: Fixture['kind']) => Object.values(FIXTURES).filter((fixture) => fixture.kind === kind).length;
    recordFigure(
      task,
      `${operations.length} operations with a path parameter: ${byKind('tenant')} answer 404 to another tenant, ${byKind('operator')} operator routes refuse a tenant key, ${byKind('connection')} provider webhook refuses another tenant's signature`,
    );
  });
});
