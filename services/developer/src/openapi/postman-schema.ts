import type { OpenAPIV3_1 } from 'openapi-types';

/** The formats Postman's validator (Ajv 6, JSON Schema draft-07) knows; it refuses a schema naming any other. */
const AJV6_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'relative-json-pointer',
]);

/**
 * A response schema as Postman's `pm.response.to.have.jsonSchema` can use
 * it: each component reference replaced by the component (a request's test
 * script stands alone), formats its validator does not know left out, and
 * `contains` left out where 2019-09's `minContains`/`maxContains` bound it
 * (draft-07 would read it as "at least one item matches").
 * The components hold no cycle (finished-document.ts makes JSON values an
 * open schema), so the expansion ends.
 */
export function schemaForPostman(schema: unknown, document: OpenAPIV3_1.Document): unknown {
  if (Array.isArray(schema)) return schema.map((item) => schemaForPostman(item, document));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref } = schema as { $ref?: unknown };
  if (typeof $ref === 'string') return schemaForPostman(document.components?.schemas?.[$ref.split('/').at(-1) ?? ''], document);
  const bounded = 'minContains' in schema || 'maxContains' in schema;
  const known = ([key, value]: [string, unknown]) =>
    !(key === 'format' && typeof value === 'string' && !AJV6_FORMATS.has(value)) && !(bounded && ['contains', 'minContains', 'maxContains'].includes(key));
  return Object.fromEntries(
    Object.entries(schema)
      .filter(known)
      .map(([key, value]) => [key, key === 'example' ? value : schemaForPostman(value, document)]),
  );
}
