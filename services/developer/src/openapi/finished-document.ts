import { isDeepStrictEqual } from 'node:util';
import type { OpenAPIV3_1 } from 'openapi-types';
import { REQUEST_EXAMPLE } from './route-examples';
import { TAGS } from './route-operations';

type Schemas = Record<string, Record<string, unknown>>;

const REF = '#/components/schemas/';

/** Every `$ref` to a component schema in `value`, recursively. */
function referencedNames(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referencedNames(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(REF)) found.add(inner.slice(REF.length));
      else referencedNames(inner, found);
    }
  }
  return found;
}

const schemasOf = (document: OpenAPIV3_1.Document) => (document.components?.schemas ?? {}) as Schemas;
const withSchemas = (document: OpenAPIV3_1.Document, schemas: Schemas): OpenAPIV3_1.Document => ({
  ...document,
  components: { ...document.components, schemas },
});

function renamed<T>(value: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll(`"${REF}${from}"`, `"${REF}${to}"`)) as T;
}

/**
 * zod writes a component as a standalone JSON Schema: its own `$schema`, and
 * an `$id` of `#/components/schemas/X`, which rebases every `$ref` inside it
 * so that none resolves. Inside an OpenAPI document the dialect is the
 * document's and a component is addressed by its place, so both go.
 */
function standalone(schemas: Schemas): Schemas {
  return Object.fromEntries(Object.entries(schemas).map(([name, { $id: _id, $schema: _dialect, ...schema }]) => [name, schema]));
}

/**
 * zod's `z.json()` is a recursive union of every JSON type, which says no
 * more than the empty schema does (a JSON body can only hold JSON values),
 * yet several generators cannot model a union containing an array of itself.
 */
const ANY_JSON = { description: 'Any JSON value: object, array, string, number, boolean or null.' };

/**
 * Each component comes as `X` (what responses carry) and `XInput` (what
 * requests take). Where only one is used, or the two agree, one name is
 * enough; the input keeps its suffix only where it differs (defaults make
 * fields optional on the way in). Repeated until nothing changes, since a
 * component agrees with its twin only once the components it refers to do.
 */
function mergedVariants(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  let merged = document;
  for (let changed = true; changed;) {
    changed = false;
    const schemas = schemasOf(merged);
    for (const name of Object.keys(schemas).filter((key) => key.endsWith('Input'))) {
      const base = name.slice(0, -'Input'.length);
      if (schemas[base] && !isDeepStrictEqual(renamed(schemas[name], name, base), schemas[base])) continue;
      const { [name]: input = {}, ...rest } = schemas;
      merged = renamed(withSchemas(merged, { ...rest, [base]: input }), name, base);
      changed = true;
      break;
    }
  }
  return merged;
}

/** Components no operation reaches, directly or through another component. */
function reachableOnly(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  const schemas = schemasOf(document);
  const reached = referencedNames(document.paths);
  for (let frontier = [...reached]; frontier.length > 0;) {
    frontier = [...referencedNames(frontier.map((name) => schemas[name]))].filter((name) => !reached.has(name));
    for (const name of frontier) reached.add(name);
  }
  return withSchemas(document, Object.fromEntries(Object.entries(schemas).filter(([name]) => reached.has(name))));
}

/** What each status means, for responses whose schema says nothing of it (fastify-swagger writes "Default Response"). */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted: appended to the event log',
  400: 'The request is invalid (VALIDATION_ERROR, with the fields at fault)',
  401: 'No valid API key (UNAUTHORIZED)',
  403: 'The key lacks the scope, environment or address the route needs (FORBIDDEN)',
  404: 'No such resource in this tenant (NOT_FOUND)',
  409: 'The Idempotency-Key was used before (IDEMPOTENCY_CONFLICT or IDEMPOTENCY_MISMATCH), or the body does not fit the resource as stored (CREDENTIALS_MISMATCH)',
  410: 'What was asked for was erased with its data key, and is gone for good (ERASED)',
  413: 'The body is too large (PAYLOAD_TOO_LARGE)',
  429: 'A rate limit is reached (RATE_LIMITED); wait for Retry-After',
  503: 'A dependency is unavailable (UNAVAILABLE)',
};

/** Each response described by its status, each request example beside its body's schema (fastify-swagger drops one beside a `$ref`). */
function describedOperations(paths: OpenAPIV3_1.PathsObject): OpenAPIV3_1.PathsObject {
  const described = structuredClone(paths);
  for (const item of Object.values(described))
    for (const operation of Object.values(item ?? {}) as (OpenAPIV3_1.OperationObject & { [REQUEST_EXAMPLE]?: unknown })[]) {
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if ('description' in response && response.description === 'Default Response')
          response.description = STATUS_DESCRIPTIONS[status] ?? response.description;
      const json = operation.requestBody && 'content' in operation.requestBody ? operation.requestBody.content['application/json'] : undefined;
      if (json && operation[REQUEST_EXAMPLE] !== undefined) json.example = operation[REQUEST_EXAMPLE];
      delete operation[REQUEST_EXAMPLE];
    }
  return described;
}

/** The document as fastify-swagger assembled it, made into one that validators and generators accept. */
export function finishedDocument(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  const schemas = standalone(schemasOf(document));
  for (const name of ['JsonValue', 'JsonValueInput']) if (schemas[name]) schemas[name] = ANY_JSON;
  const finished = mergedVariants(reachableOnly(withSchemas(document, schemas)));
  return { ...finished, paths: describedOperations(finished.paths ?? {}), tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })) };
}
