import { createHmac } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_EVENT_VERSION } from '@earshot/contracts';
import { startEarshot, type EarshotTenant, type TestEarshot, envelope } from '@earshot/testing';
import { UNDESCRIBED_PREFIXES } from './api-description';

type Operation = {
  security?: Record<string, string[]>[];
  'x-scopes'?: string[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
  parameters?: { name: string; in: string }[];
};
type Document = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

let earshot: TestEarshot;
let tenant: EarshotTenant;

/** Every method and path the app answers, read back from Fastify's route tree (it keeps no plain list). */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│├└─\s]*?)(?:[├└]── )(\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD')) routes.push(`${method} ${path}`);
  }
  return routes;
}

beforeAll(async () => {
  earshot = await startEarshot('openapi');
  tenant = await earshot.createTenant();
}, 120_000);
afterAll(async () => earshot?.stop());

const openapiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

async function description(): Promise<Document> {
  const response = await fetch(`${earshot.origin}/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, version 1.0.0, with the bearer scheme', async () => {
    const document = await description();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes every registered route but its own surfaces', async () => {
    const document = await description();
    const described = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const registered = registeredRoutes(earshot.runtime.http().printRoutes({ commonPrefix: false }))
      .filter((route) => !UNDESCRIBED_PREFIXES.some((prefix) => route.split(' ')[1]?.startsWith(prefix)) && !route.endsWith(' *'))
      .map((route) => route.replace(/:(\w+)/g, '{$1}'));
    expect(described.sort()).toEqual(registered.sort());
    for (const route of [
      'GET /health',
      'GET /api/v1/health',
      'GET /api/v1/realtime',
      'GET /api/v1/calls',
      'GET /api/v1/calls/{id}',
      'GET /api/v1/outcomes',
      'POST /api/v1/outcomes',
      'GET /api/v1/incidents',
      'POST /api/v1/incidents',
      'GET /api/v1/alerts',
      'GET /api/v1/deployments',
      'POST /api/v1/deployments',
      'GET /api/v1/metrics',
      'GET /api/v1/usage',
      'GET /api/v1/billing/invoices',
      'GET /api/v1/audit',
      'POST /api/v1/webhooks/ingest',
      'POST /api/v1/webhooks/events',
      'POST /api/v1/admin/tenants',
      'GET /api/v1/admin/deliveries',
      'GET /api/v1/admin/dead-letters',
      'GET /api/v1/admin/dead-letters/{id}',
      'POST /api/v1/admin/dead-letters/{id}/replay',
    ]) {
      expect(described, `${route} is described`).toContain(route);
    }
  });

  it('names the scope of each route, the rate-limit headers, the signature headers and examples', async () => {
    const document = await description();
    const calls = document.paths['/api/v1/calls']?.get as Operation;
    expect(calls.security).toEqual([{ bearer: ['calls:read'] }]);
    expect(calls['x-scopes']).toEqual(['calls:read']);
    expect(Object.keys(calls.responses).sort()).toEqual(['200', '400', '401', '403', '429']);
    expect(Object.keys(calls.responses['200']?.headers ?? {})).toEqual(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);
    expect(Object.keys(calls.responses['429']?.headers ?? {})).toContain('retry-after');
    const ingest = document.paths['/api/v1/webhooks/ingest']?.post as Operation & { requestBody: { content: Record<string, { example?: unknown }> } };
    expect(ingest.security).toEqual([{ bearer: ['events:write'] }]);
    expect(ingest.parameters?.map((p) => `${p.in} ${p.name}`)).toEqual([
      'header x-earshot-timestamp',
      'header x-earshot-signature',
      'header x-earshot-provider',
    ]);
    expect(ingest.requestBody.content['application/json']?.example).toMatchObject({ type: 'call.started', version: CURRENT_EVENT_VERSION });
    expect(document.paths['/api/v1/health']?.get?.security).toEqual([]);
  });
});

describe('GET /postman', () => {
  it('is a v2.1 collection with the key as bearer variable and a pre-request script whose signature the gateway accepts', async () => {
    const response = await fetch(`${earshot.origin}/postman`);
    expect(response.status).toBe(200);
    const collection = (await response.json()) as {
      info: { schema: string };
      auth: unknown;
      event: { listen: string; script: { exec: string[] } }[];
      variable: { key: string; value: string }[];
      item: unknown[];
    };
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    expect(collection.variable.map((v) => v.key)).toEqual(expect.arrayContaining(['baseUrl', 'apiKey', 'webhookSecret']));
    const requests = JSON.stringify(collection.item).match(/"path":\[[^\]]*\]/g) ?? [];
    expect(requests).toContain('"path":["api","v1","webhooks","ingest"]');

    // Run the collection's script as Postman would, with Postman's CryptoJS stood in for by node's HMAC, then send what it signed.
    const body = JSON.stringify(envelope('postman-signed-1'));
    const headers = new Map<string, string>();
    const pm = {
      variables: { get: (key: string) => (key === 'webhookSecret' ? tenant.webhookSecret : undefined), replaceIn: (text: string) => text },
      request: {
        url: { getPath: () => '/api/v1/webhooks/ingest' },
        body: { raw: body },
        headers: { upsert: ({ key, value }: { key: string; value: string }) => headers.set(key, value) },
      },
    };
    const CryptoJS = {
      enc: { Hex: 'hex' },
      HmacSHA256: (message: string, secret: string) => ({ toString: () => createHmac('sha256', secret).update(message).digest('hex') }),
    };
    const script = collection.event.find((e) => e.listen === 'prerequest')?.script.exec.join('\n') ?? '';
    runInNewContext(script, { pm, CryptoJS, Date });
    const sent = await fetch(`${earshot.origin}/api/v1/webhooks/ingest`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tenant.apiKey}`,
        'content-type': 'application/json',
        'x-earshot-provider': 'postman',
        ...Object.fromEntries(headers),
      },
      body,
    });
    expect(sent.status, await sent.clone().text()).toBe(202);
  });
});
