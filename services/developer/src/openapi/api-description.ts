import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { scopesOf, type RoutePolicy } from '@earshot/server';
import { COMPONENTS } from './component-schemas';
import { finishedDocument } from './finished-document';
import { ROUTE_CONTRACTS, SIGNATURE_SCHEMES } from './route-contracts';
import { routeExamples } from './route-examples';
import { ROUTE_OPERATIONS } from './route-operations';

/** Routes that are the description's own surfaces, or another protocol's (OTLP/HTTP under /v1/, Prometheus at /metrics), not the API it describes. */
export const UNDESCRIBED_PREFIXES = ['/openapi.json', '/postman', '/developers/', '/graphql', '/api/v1/stream', '/console', '/v1/', '/metrics'] as const;

const RATE_LIMIT_HEADERS = {
  'ratelimit-limit': { type: 'integer', description: 'requests allowed per minute for this key or tenant' },
  'ratelimit-remaining': { type: 'integer', description: 'requests left in the current minute' },
  'ratelimit-reset': { type: 'integer', description: 'seconds until the window resets' },
} as const;
const RETRY_AFTER = { 'retry-after': { type: 'integer', description: 'seconds to wait before retrying' } } as const;

const DESCRIPTION = [
  'Observability for voice AI agents: calls, latency, outcomes, metrics, incidents and alerts per tenant, and signed webhook ingest.',
  'Every route but `/health` takes `Authorization: Bearer <API key>`; the scope each route needs is in its `security` and in `x-scopes`.',
  'Ingest requests are signed: `X-Earshot-Timestamp` (Unix seconds) and `X-Earshot-Signature`, the lowercase hex HMAC-SHA256 of `timestamp + "." + raw body` keyed with the tenant webhook secret.',
  'Text is Unicode text: no NUL character (each text field says so in its `pattern`) and no unpaired UTF-16 surrogate (`\\ud800` alone has no UTF-8 form); either is a 400 `VALIDATION_ERROR` naming the field.',
  'Every authenticated answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; a 429 adds `Retry-After`.',
].join('\n\n');

const toJsonSchema = createJsonSchemaTransform({ schemaRegistry: COMPONENTS });
const withComponents = createJsonSchemaTransformObject({ schemaRegistry: COMPONENTS });

type Schema = Record<string, unknown> & { response?: Record<string, object> };

/** What a route's policy adds to its operation: the scheme, the scope, the signature it needs, the rate-limit headers on every answer. */
function accessOf(policy: RoutePolicy | undefined, schema: Schema, signedWith: string | undefined): Schema {
  if (!policy || policy.auth === 'public') return { ...schema, security: [] };
  if (policy.auth === 'admin') return { ...schema, security: [{ operator: [] }], 'x-scopes': ['operator'] };
  const response = Object.fromEntries(
    Object.entries(schema.response ?? {}).map(([status, body]) => [
      status,
      { ...body, headers: status === '429' ? { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } : RATE_LIMIT_HEADERS },
    ]),
  );
  const scopes = [...scopesOf(policy)];
  return { ...schema, response, security: [{ bearer: scopes, ...(signedWith ? { [signedWith]: [] } : {}) }], 'x-scopes': scopes };
}

function contractOf(route: string): Schema | undefined {
  const contract = ROUTE_CONTRACTS[route];
  if (!contract) return undefined;
  const { headers, params, body, response } = contract;
  return { response: { ...response }, ...(headers ? { headers } : {}), ...(params ? { params } : {}), ...(body ? { body } : {}) };
}

/** The operation's name, tag and summary; a route missing from the table has none, which the description's test reports. */
function namedOf(route: string, schema: Schema): Schema {
  const operation = ROUTE_OPERATIONS[route];
  if (!operation) return schema;
  const { operationId, tag, summary, destructive } = operation;
  return { ...schema, operationId, tags: [tag], summary, ...(destructive ? { 'x-destructive': true } : {}) };
}

/**
 * Records every route registered after it and turns their zod schemas (or,
 * for routes that parse their own bodies, their contracts) into OpenAPI 3.1.
 * Registered on the HTTP app before any service, so it sees every route.
 */
export async function describeRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Earshot API', version: '1.0.0', description: DESCRIPTION },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key, `ear_live_…` or `ear_test_…`, holding the scope the route names' },
          operator: { type: 'http', scheme: 'bearer', description: 'The operator token (EARSHOT_ADMIN_TOKEN)' },
          ...SIGNATURE_SCHEMES,
        },
      },
    },
    transform: (input) => {
      const { schema, url, route } = input;
      if (UNDESCRIBED_PREFIXES.some((prefix) => url.startsWith(prefix))) return { schema: { hide: true }, url };
      const key = `${String(route.method)} ${url}`;
      const declared = (schema as Schema | undefined) ?? contractOf(key);
      const transformed = toJsonSchema({ ...input, schema: declared } as Parameters<typeof toJsonSchema>[0]);
      const described = namedOf(key, routeExamples(key, transformed.schema as Schema));
      return { schema: accessOf(route.config?.policy, described, ROUTE_CONTRACTS[key]?.signedWith), url: transformed.url };
    },
    transformObject: (input) => finishedDocument(withComponents(input) as OpenAPIV3_1.Document),
  });
}

/** The description of every route registered so far. */
export function apiDescription(app: FastifyInstance): OpenAPIV3_1.Document {
  return app.swagger() as OpenAPIV3_1.Document;
}
