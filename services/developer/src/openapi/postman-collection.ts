import type { OpenAPIV3_1 } from 'openapi-types';
import { INGEST_HEADERS, WEBHOOK_EVENT_HEADERS } from '@earshot/contracts';
import { TAGS } from './route-operations';
import { schemaForPostman } from './postman-schema';

/**
 * Signs every webhook request the way the gateway checks it: the timestamp,
 * a dot and the raw body, HMAC-SHA256 with the webhook secret, lowercase hex.
 * Postman runs it before each request of the collection (crypto-js is built in).
 */
export const SIGNING_SCRIPT = [
  "const cryptoJs = require('crypto-js');",
  'const path = pm.request.url.getPath();',
  "if (path.includes('/webhooks/')) {",
  "  const secret = pm.variables.get('webhookSecret');",
  '  const timestamp = String(Math.floor(Date.now() / 1000));',
  "  const body = pm.request.body && pm.request.body.raw ? pm.variables.replaceIn(pm.request.body.raw) : '';",
  "  const signature = cryptoJs.HmacSHA256(timestamp + '.' + body, secret).toString(cryptoJs.enc.Hex);",
  "  const ingest = path.includes('/webhooks/ingest');",
  `  pm.request.headers.upsert({ key: ingest ? '${INGEST_HEADERS.timestamp}' : '${WEBHOOK_EVENT_HEADERS.timestamp}', value: timestamp });`,
  `  pm.request.headers.upsert({ key: ingest ? '${INGEST_HEADERS.signature}' : '${WEBHOOK_EVENT_HEADERS.signature}', value: signature });`,
  '}',
];

/** The folder of requests that change credentials, replace settings or act as the operator, and the switch that runs it. */
export const DESTRUCTIVE_FOLDER = 'Destructive and operator requests';
const RUN_DESTRUCTIVE = 'runDestructive';
const SKIP_UNLESS_ASKED = [`if (pm.variables.get('${RUN_DESTRUCTIVE}') !== 'true') pm.execution.skipRequest();`];

/** Headers the signing script sets; the rest of a route's header parameters get a value here. */
const SIGNED = new Set<string>([INGEST_HEADERS.timestamp, INGEST_HEADERS.signature, WEBHOOK_EVENT_HEADERS.timestamp, WEBHOOK_EVENT_HEADERS.signature]);
const HEADER_VALUES: Record<string, string> = { 'idempotency-key': '{{$guid}}', [INGEST_HEADERS.provider]: 'postman' };

type Operation = OpenAPIV3_1.OperationObject & { 'x-destructive'?: boolean };
type Parameter = OpenAPIV3_1.ParameterObject & { schema?: OpenAPIV3_1.SchemaObject };
interface Described {
  method: string;
  path: string;
  operation: Operation;
}

interface PostmanVariable {
  key: string;
  value: string;
  description?: string;
}
export type PostmanCollection = Record<string, unknown> & { item: unknown[]; variable: PostmanVariable[] };

/** `/api/v1/alerts/rules/{id}` → the collection holding it, `/api/v1/alerts/rules`, and its id variable, `ruleId`. */
function resourceOf(path: string, paths: readonly string[]): { collection: string; variable: string } | undefined {
  const collection = path.replace(/\/\{id\}.*$/, '');
  if (!paths.some((p) => p.startsWith(`${collection}/{id}`))) return undefined;
  const name = (collection.split('/').at(-1) ?? '').replace(/s$/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return { collection, variable: `${name}Id` };
}

const isOperator = (operation: Operation) => operation.security?.some((requirement) => 'operator' in requirement) ?? false;
const successOf = (operation: Operation) => Object.keys(operation.responses ?? {}).find((status) => status.startsWith('2')) ?? '200';

/** Tests Postman runs after the request: the documented status, the documented body, and the ids later requests use. */
function testScript(described: Described, document: OpenAPIV3_1.Document, paths: readonly string[]): string[] {
  const { method, path, operation } = described;
  const status = successOf(operation);
  const response = operation.responses?.[status] as OpenAPIV3_1.ResponseObject | undefined;
  const schema = response?.content?.['application/json']?.schema;
  const lines = [`pm.test('answers ${status}', function () { pm.response.to.have.status(${status}); });`];
  if (schema)
    lines.push(`pm.test('the body is as documented', function () { pm.response.to.have.jsonSchema(${JSON.stringify(schemaForPostman(schema, document))}); });`);
  // A list names the first item where no earlier request named one; a create names what it made.
  const resource = resourceOf(path, paths);
  const list = method === 'get' && path === resource?.collection;
  const create = method === 'post' && path === resource?.collection;
  if (resource && (list || create)) {
    lines.push(
      `if (pm.response.code === ${status}) {`,
      '  const body = pm.response.json();',
      list
        ? `  if (!pm.collectionVariables.get('${resource.variable}') && body.items && body.items[0]) pm.collectionVariables.set('${resource.variable}', body.items[0].id);`
        : `  const id = body.id || Object.values(body).map(function (v) { return v && typeof v === 'object' ? v.id : undefined; }).find(Boolean);\n  if (id) pm.collectionVariables.set('${resource.variable}', id);`,
      '}',
    );
  }
  if (operation.operationId === 'rotateWebhookSecret')
    lines.push("if (pm.response.code === 200) pm.collectionVariables.set('webhookSecret', pm.response.json().webhookSecret);");
  return lines;
}

/** An id in a request example that an earlier response provides (a call's, a deployment's) is sent as that variable. */
function bodyOf(operation: Operation, variables: ReadonlySet<string>) {
  const body = operation.requestBody && 'content' in operation.requestBody ? operation.requestBody.content['application/json'] : undefined;
  if (!body || body.example === undefined) return undefined;
  const example = body.example as unknown;
  const sent =
    example && typeof example === 'object' && !Array.isArray(example)
      ? Object.fromEntries(Object.entries(example).map(([key, value]) => [key, variables.has(key) ? `{{${key}}}` : value]))
      : example;
  return { mode: 'raw', raw: JSON.stringify(sent, null, 2), options: { raw: { language: 'json' } } };
}

function requestOf(described: Described, document: OpenAPIV3_1.Document, paths: readonly string[], variables: ReadonlySet<string>) {
  const { method, path, operation } = described;
  const parameters = (operation.parameters ?? []) as Parameter[];
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment === '{id}' ? `{{${resourceOf(path, paths)?.variable ?? 'id'}}}` : segment));
  const query = parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const value: unknown = p.example ?? p.schema?.default ?? p.schema?.enum?.[0] ?? '';
      return { key: p.name, value: String(value), disabled: !p.required, ...(p.description ? { description: p.description } : {}) };
    });
  const enabled = query.filter((q) => !q.disabled).map((q) => `${q.key}=${encodeURIComponent(q.value)}`);
  const headers = parameters
    .filter((p) => p.in === 'header' && !SIGNED.has(p.name))
    .map((p) => ({ key: p.name, value: HEADER_VALUES[p.name] ?? String(p.example ?? p.schema?.default ?? '') }));
  const body = bodyOf(operation, variables);
  return {
    name: operation.summary ?? operation.operationId,
    event: [
      { listen: 'test', script: { type: 'text/javascript', exec: testScript(described, document, paths) } },
      ...(operation['x-destructive'] || isOperator(operation) ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: SKIP_UNLESS_ASKED } }] : []),
    ],
    request: {
      method: method.toUpperCase(),
      description: `${operation.operationId}: ${operation.description ?? operation.summary ?? ''}`,
      header: [...headers, ...(body ? [{ key: 'Content-Type', value: 'application/json' }] : [])],
      url: { raw: `{{baseUrl}}/${segments.join('/')}${enabled.length ? `?${enabled.join('&')}` : ''}`, host: ['{{baseUrl}}'], path: segments, query },
      ...(body ? { body } : {}),
      ...(isOperator(operation)
        ? { auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{operatorToken}}', type: 'string' }] } }
        : operation.security?.length === 0
          ? { auth: { type: 'noauth' } }
          : {}),
    },
  };
}

/**
 * A Postman v2.1 collection of the description, meant to run green with
 * `newman run` given only baseUrl, apiKey and webhookSecret: a folder per
 * tag, tests on every request, ids passed on through collection variables,
 * webhook requests signed before they leave, a fresh Idempotency-Key per
 * write. Requests that rotate credentials, replace settings or need the
 * operator token sit in one last folder, skipped unless runDestructive is
 * "true"; within it, deletions come last.
 */
export function postmanCollection(document: OpenAPIV3_1.Document, baseUrl: string): PostmanCollection {
  const operations: Described[] = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {}).map(([method, operation]) => ({ method, path, operation: operation as Operation })),
  );
  const paths = Object.keys(document.paths ?? {});
  const idVariables = [...new Set(paths.map((path) => resourceOf(path, paths)?.variable).filter((v): v is string => Boolean(v)))];
  const variables = new Set(idVariables);
  const isSetAside = ({ operation }: Described) => Boolean(operation['x-destructive']) || isOperator(operation);
  const folders = Object.entries(TAGS).map(([tag, description]) => ({
    name: tag,
    description,
    item: operations.filter((o) => o.operation.tags?.includes(tag) && !isSetAside(o)).map((o) => requestOf(o, document, paths, variables)),
  }));
  const setAside = operations
    .filter(isSetAside)
    .sort(
      (a, b) =>
        Number(Boolean(a.operation['x-destructive'])) - Number(Boolean(b.operation['x-destructive'])) ||
        Number(a.method === 'delete') - Number(b.method === 'delete'),
    );
  return {
    info: {
      name: document.info.title,
      description: document.info.description,
      version: document.info.version,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] },
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: SIGNING_SCRIPT } }],
    variable: [
      { key: 'baseUrl', value: baseUrl },
      { key: 'apiKey', value: '', description: 'an API key: ear_live_… or ear_test_…' },
      { key: 'webhookSecret', value: '', description: 'the tenant webhook secret, for signed ingest' },
      { key: 'operatorToken', value: '', description: `the operator token (EARSHOT_ADMIN_TOKEN), for the ${DESTRUCTIVE_FOLDER} folder` },
      { key: RUN_DESTRUCTIVE, value: 'false', description: `"true" runs the ${DESTRUCTIVE_FOLDER} folder too` },
      ...idVariables.map((key) => ({ key, value: '', description: 'set by an earlier request of the run' })),
    ],
    item: [
      ...folders.filter((folder) => folder.item.length > 0),
      {
        name: DESTRUCTIVE_FOLDER,
        description: `Rotates the webhook secret, revokes keys, replaces the alert webhook and acts as the operator. Skipped unless the variable ${RUN_DESTRUCTIVE} is "true".`,
        item: setAside.map((o) => requestOf(o, document, paths, variables)),
      },
    ],
  };
}
