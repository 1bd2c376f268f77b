import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_EVENT_VERSION } from '@earshot/contracts';
import { startEarshot, type TestEarshot } from '@earshot/testing';
import { UNDESCRIBED_PREFIXES } from './api-description';
import { ROUTE_OPERATIONS, TAGS } from './route-operations';

type Operation = {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-scopes'?: string[];
  responses: Record<string, { headers?: Record<string, Record<string, unknown>>; content?: Record<string, { schema: { $ref?: string } }> }>;
  parameters?: { name: string; in: string }[];
};
type Document = {
  openapi: string;
  info: { version: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { required?: string[] }> };
};

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, operations]) => Object.entries(operations).map(([method, operation]) => ({ method, path, operation })));

let earshot: TestEarshot;

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
  await earshot.createTenant();
}, 120_000);
afterAll(async () => earshot?.stop());

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
    expect(Object.keys(calls.responses).sort()).toEqual(['200', '400', '401', '403', '429', '503']);
    expect(Object.keys(calls.responses['200']?.headers ?? {})).toEqual(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);
    expect(Object.keys(calls.responses['429']?.headers ?? {})).toContain('retry-after');
    const ingest = document.paths['/api/v1/webhooks/ingest']?.post as Operation & { requestBody: { content: Record<string, { example?: unknown }> } };
    expect(ingest.security).toEqual([{ bearer: ['events:write'], ingestSignature: [] }]);
    expect(document.components.securitySchemes.ingestSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Earshot-Signature' });
    expect(ingest.parameters?.map((p) => `${p.in} ${p.name}`)).toEqual([
      'header x-earshot-timestamp',
      'header x-earshot-signature',
      'header x-earshot-provider',
    ]);
    expect(ingest.requestBody.content['application/json']?.example).toMatchObject({ type: 'call.started', version: CURRENT_EVENT_VERSION });
    expect(document.paths['/api/v1/health']?.get?.security).toEqual([]);
  });
});

describe('the operations of /openapi.json', () => {
  it('each have the operationId, tag and summary of the route table, ids unique, tags described', async () => {
    const document = await description();
    const operations = operationsOf(document);
    const ids = operations.map(({ operation }) => operation.operationId);
    const missing = operations.filter(({ operation }) => !operation.operationId).map(({ method, path }) => `${method} ${path}`);
    expect(missing, 'routes missing from ROUTE_OPERATIONS').toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(
      Object.values(ROUTE_OPERATIONS)
        .map((o) => o.operationId)
        .sort(),
    );
    for (const id of ['listCalls', 'getCall', 'ingestEvents', 'createOutcome', 'listOutcomes', 'getMetric', 'rotateWebhookSecret']) expect(ids).toContain(id);
    expect(document.paths['/api/v1/calls/{id}']?.get?.operationId).toBe('getCall');
    expect(document.paths['/api/v1/calls/{id}']?.get?.tags).toEqual(['Calls']);
    expect(document.tags.map((t) => t.name)).toEqual(Object.keys(TAGS));
    expect(document.tags.every((t) => t.description.length > 20)).toBe(true);
    const tagged = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
    expect([...tagged].sort()).toEqual(Object.keys(TAGS).sort());
  });

  it('answer every error with the one ErrorBody schema (health’s 503 with its Error-shaped extension)', async () => {
    const document = await description();
    const errors = operationsOf(document).flatMap(({ method, path, operation }) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => ({ at: `${method} ${path} ${status}`, ref: response.content?.['application/json']?.schema.$ref })),
    );
    expect(errors.length).toBeGreaterThan(150);
    const health = errors.filter((e) => e.at.endsWith('health 503'));
    expect(health.map((e) => e.ref)).toEqual(['#/components/schemas/HealthDegraded', '#/components/schemas/HealthDegraded']);
    expect(document.components.schemas.HealthDegraded?.required).toEqual(expect.arrayContaining(['ok', 'error', 'code']));
    expect(errors.filter((e) => !health.includes(e) && e.ref !== '#/components/schemas/ErrorBody')).toEqual([]);
  });

  it('has header objects without `name` and components without `$id` (each broke openapi-spec-validator)', async () => {
    const document = await description();
    const headers = operationsOf(document).flatMap(({ operation }) => Object.values(operation.responses).flatMap((r) => Object.values(r.headers ?? {})));
    expect(headers.length).toBeGreaterThan(100);
    expect(headers.filter((header) => 'name' in header)).toEqual([]);
    expect(JSON.stringify(document)).not.toContain('"$id"');
  });
});

type Schema = {
  $ref?: string;
  type?: string | string[];
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Input = { requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: { name: string; in: string; schema: Schema }[] };

/** Every string a request may carry, by where it sits, with the schema that states it (refs followed once each). */
function requestStrings(document: Document & { components: { schemas: Record<string, Schema> } }): { at: string; schema: Schema }[] {
  const found: { at: string; schema: Schema }[] = [];
  const seen = new Set<string>();
  const walk = (schema: Schema | boolean | undefined, at: string): void => {
    if (typeof schema !== 'object') return;
    if (schema.$ref) {
      if (seen.has(schema.$ref)) return;
      seen.add(schema.$ref);
      walk(document.components.schemas[schema.$ref.split('/').pop() ?? ''], at);
      return;
    }
    const types = [schema.type].flat();
    if (types.includes('string')) found.push({ at, schema });
    for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${at}.${name}`);
    walk(schema.items, `${at}[]`);
    walk(schema.additionalProperties, `${at}.*`);
    for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(part, at);
  };
  for (const { method, path, operation } of operationsOf(document)) {
    const input = operation as Operation & Input;
    for (const parameter of input.parameters ?? []) walk(parameter.schema, `${method} ${path} ${parameter.in}.${parameter.name}`);
    for (const [type, content] of Object.entries(input.requestBody?.content ?? {})) walk(content.schema, `${method} ${path} ${type}`);
  }
  return found;
}

describe('the request strings of /openapi.json', () => {
  // The platform refuses a NUL in any string of a request; a generator (schemathesis) that is not told so sends one and
  // reads our 400 as a schema-valid request rejected.
  it('each state the text rule, or a format, an enum or a pattern that excludes NUL', async () => {
    const document = (await description()) as Document & { components: { schemas: Record<string, Schema> } };
    const strings = requestStrings(document);
    expect(strings.length).toBeGreaterThan(50);
    const unstated = strings.filter(({ schema }) => {
      if (schema.enum || schema.const !== undefined || schema.format) return false;
      const patterns = [schema.pattern, ...(schema.allOf ?? []).map((part) => part.pattern)].filter((p) => p !== undefined);
      return !patterns.some((pattern) => !new RegExp(pattern, 'u').test('a\u0000b'));
    });
    expect(unstated.map(({ at }) => at)).toEqual([]);
  });
});
