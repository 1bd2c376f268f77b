import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signBody } from '@earshot/auth';
import { INGEST_HEADERS, WEBHOOK_EVENT_HEADERS } from '@earshot/contracts';
import { startEarshot, type TestEarshot, ADMIN_TOKEN } from '@earshot/testing';

interface Operation {
  method: string;
  path: string;
  signed?: { timestamp: string; signature: string };
}

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Access is the platform's, not each service's: with the deployment
 * accepting staging keys only, a live key is refused by every key route of
 * every service (REST, GraphQL, the stream), and a staging key gets in
 * everywhere with the RateLimit headers on its answer.
 */
describe('access is enforced once, for every route', () => {
  let earshot: TestEarshot;
  let live: { apiKey: string; webhookSecret: string };
  let staging: { apiKey: string; webhookSecret: string };
  let operations: Operation[];

  const createTenant = async (environment: 'production' | 'staging') => {
    const response = await fetch(`${earshot.origin}/api/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `${environment} tenant`, environment }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { apiKey: string; webhookSecret: string };
  };

  beforeAll(async () => {
    earshot = await startEarshot('access-everywhere', { env: { EARSHOT_KEY_ENVIRONMENTS: 'staging' } });
    live = await createTenant('production');
    staging = await createTenant('staging');
    const description = (await (await fetch(`${earshot.origin}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: { bearer?: string[] }[] }>>;
    };
    operations = Object.entries(description.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.security?.some((scheme) => scheme.bearer !== undefined))
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, SOME_ID) })),
    );
    operations.push({ method: 'POST', path: '/graphql' }, { method: 'GET', path: '/graphql?query=%7B__typename%7D' });
  }, 300_000);

  afterAll(async () => earshot?.stop());

  const send = (operation: Operation, key: string, secret: string) => {
    const body = operation.method === 'GET' || operation.method === 'DELETE' ? undefined : operation.path === '/graphql' ? '{"query":"{__typename}"}' : '{}';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = body === undefined ? '' : signBody(secret, timestamp, Buffer.from(body));
    return fetch(`${earshot.origin}${operation.path}`, {
      method: operation.method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        [INGEST_HEADERS.timestamp]: timestamp,
        [INGEST_HEADERS.signature]: signature,
        [INGEST_HEADERS.provider]: 'vapi',
        [WEBHOOK_EVENT_HEADERS.timestamp]: timestamp,
        [WEBHOOK_EVENT_HEADERS.signature]: signature,
      },
      ...(body === undefined ? {} : { body }),
    });
  };

  it('refuses a key of an environment the deployment does not accept on every key route', async () => {
    expect(operations.length).toBeGreaterThan(30);
    const answers = await Promise.all(
      operations.map(async (operation) => {
        const response = await send(operation, live.apiKey, live.webhookSecret);
        const body = (await response.json()) as { code?: string; error?: string };
        return `${operation.method} ${operation.path} ${response.status} ${body.code} ${/accepts staging keys only/.test(body.error ?? '')}`;
      }),
    );
    expect(answers).toEqual(operations.map((operation) => `${operation.method} ${operation.path} 403 FORBIDDEN true`));
  });

  it('lets a key of the accepted environment in on every key route, each answer carrying the RateLimit headers', async () => {
    const answers = await Promise.all(
      operations.map(async (operation) => {
        const response = await send(operation, staging.apiKey, staging.webhookSecret);
        await response.arrayBuffer();
        const refused = response.status === 401 || response.status === 403;
        return `${operation.method} ${operation.path} refused=${refused} ratelimit=${response.headers.get('ratelimit-limit') !== null}`;
      }),
    );
    expect(answers).toEqual(operations.map((operation) => `${operation.method} ${operation.path} refused=false ratelimit=true`));
  });

  it('applies the same rule to the live stream', async () => {
    const open = (key: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`${earshot.origin.replace('http', 'ws')}/api/v1/stream`, ['earshot.v1'], { headers: { authorization: `Bearer ${key}` } });
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
        socket.once('unexpected-response', (request, response) => {
          request.destroy();
          resolve(response.statusCode ?? 0);
        });
      });
    expect(await open(live.apiKey)).toBe(403);
    expect(await open(staging.apiKey)).toBe(101);
  });
});
