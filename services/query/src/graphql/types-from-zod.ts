import { z } from 'zod';

/** JSON Schema as zod emits it, as far as GraphQL types need it. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
}

/**
 * GraphQL object types from the zod contracts of the REST resources, so the
 * two surfaces cannot disagree about a field. Nested objects are named after
 * their parent and key unless `names` gives a name for the path; free-form
 * JSON becomes the `JSON` scalar.
 */
export class GraphqlTypes {
  private readonly definitions = new Map<string, string>();

  /** Defines the type of an object schema under `name` (once) and returns the name. */
  object(name: string, schema: z.ZodType, names: Record<string, string> = {}): string {
    return this.objectOf(name, z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema, names, name);
  }

  /** GraphQL arguments from an input schema (a list query): all optional, zod applies defaults and checks them. */
  static arguments(schema: z.ZodType): string {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    return Object.entries(json.properties ?? {})
      .map(([key, field]) => `${key}: ${scalarOf(field) ?? 'String'}`)
      .join(', ');
  }

  sdl(): string {
    return [...this.definitions.values()].join('\n\n');
  }

  private objectOf(name: string, schema: JsonSchema, names: Record<string, string>, path: string): string {
    if (this.definitions.has(name)) return name;
    this.definitions.set(name, '');
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([key, field]) => {
      const { type, nullable } = this.typeOf(field, names, `${path}.${key}`, `${name}${key[0]?.toUpperCase()}${key.slice(1)}`);
      return `  ${key}: ${type}${required.has(key) && !nullable ? '!' : ''}`;
    });
    this.definitions.set(name, `type ${name} {\n${fields.join('\n')}\n}`);
    return name;
  }

  private typeOf(schema: JsonSchema, names: Record<string, string>, path: string, fallback: string): { type: string; nullable: boolean } {
    const variants = schema.anyOf ?? schema.oneOf;
    if (variants) {
      const present = variants.filter((v) => v.type !== 'null');
      const nullable = present.length < variants.length;
      if (present.length === 1 && present[0]) return { type: this.typeOf(present[0], names, path, fallback).type, nullable };
      return { type: 'JSON', nullable };
    }
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    const nullable = types.includes('null');
    const scalar = scalarOf(schema);
    if (scalar) return { type: scalar, nullable };
    if (types.includes('array') && schema.items) {
      const item = this.typeOf(schema.items, names, `${path}[]`, fallback.replace(/s$/, ''));
      return { type: `[${item.type}${item.nullable ? '' : '!'}]`, nullable };
    }
    if (types.includes('object') && schema.properties) return { type: this.objectOf(names[path] ?? fallback, schema, names, path), nullable };
    return { type: 'JSON', nullable };
  }
}

function scalarOf(schema: JsonSchema): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : schema.type ? [schema.type] : [];
  if (typeof schema.const === 'boolean') return 'Boolean';
  if (types.length !== 1) return undefined;
  switch (types[0]) {
    case 'string':
      return 'String';
    case 'integer':
      return 'Int';
    case 'number':
      return 'Float';
    case 'boolean':
      return 'Boolean';
    default:
      return undefined;
  }
}
