/**
 * Writes contract_gen.go: the rules of the API's request bodies, read from
 * the zod contracts through their JSON Schema, so the provider validates a
 * plan exactly as the API will validate the request, and a change to a
 * contract shows up as a change to this file (a test regenerates it).
 *
 *   npx tsx iac/terraform-provider-earshot/internal/contract/generate.ts
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import {
  AlertRuleInputSchema,
  AlertRulePatchSchema,
  AlertWebhookInputSchema,
  ApiKeyInputSchema,
  DeploymentInputSchema,
  RotationInputSchema,
} from '@earshot/contracts';

interface JsonSchema {
  type?: string;
  enum?: (string | number)[];
  const?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  pattern?: string;
  format?: string;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** zod's URL protocol rule, which JSON Schema cannot say (added by the override below). */
  'x-protocol'?: string;
}

/** Patterns that RE2 (Go's regexp) cannot run, each checked in Go by the format it stands for. */
const FORMAT_PATTERNS: Record<string, string> = {
  '^(?!000[01]|9999)': 'date-time',
};
const KNOWN_FORMATS = new Set(['date-time', 'uri', 'ipv4', 'ipv6', 'cidrv4', 'cidrv6']);

/** JavaScript's \uXXXX escapes in Go's regexp syntax. */
const re2 = (pattern: string) => pattern.replace(/\\u([0-9a-fA-F]{4})/g, '\\x{$1}');

interface Field {
  type: string;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  enum?: string[];
  patterns: string[];
  formats: string[];
  items?: Field;
  /** A literal the field may also be (the key's allowlist: "any"). */
  orConst?: string;
  /** null is accepted: in a PATCH, it clears the field. */
  nullable?: boolean;
  protocol?: string;
}

function fieldOf(schema: JsonSchema, required: boolean, where: string): Field {
  const parts = [schema, ...(schema.allOf ?? [])];
  const field: Field = { type: schema.type ?? '', required, patterns: [], formats: [] };
  for (const part of parts) {
    if (part.pattern !== undefined) {
      const format = FORMAT_PATTERNS[part.pattern];
      if (format) field.formats.push(format);
      else if (part.format && KNOWN_FORMATS.has(part.format)) field.formats.push(part.format);
      else field.patterns.push(re2(part.pattern));
    } else if (part.format !== undefined) {
      if (!KNOWN_FORMATS.has(part.format)) throw new Error(`${where}: format ${part.format} has no Go check`);
      field.formats.push(part.format);
    }
  }
  if (schema['x-protocol'] !== undefined) field.protocol = schema['x-protocol'];
  if (schema.enum) field.enum = schema.enum.map(String);
  for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const) {
    if (schema[key] !== undefined) field[key] = schema[key];
  }
  if (schema.default !== undefined) field.default = schema.default;
  if (schema.anyOf) {
    const nonNull = schema.anyOf.filter((option) => option.type !== 'null');
    if (nonNull.length === 1 && nonNull[0] && schema.anyOf.length === 2) return { ...fieldOf(nonNull[0], required, where), nullable: true };
    const literal = schema.anyOf.find((option) => option.const !== undefined);
    const list = schema.anyOf.find((option) => option.type === 'array');
    const formats = schema.anyOf.filter((option) => option.format !== undefined);
    if (literal && list) {
      const inner = fieldOf(list, required, where);
      return { ...inner, orConst: literal.const, default: field.default };
    }
    if (formats.length === schema.anyOf.length) {
      return { ...field, type: 'string', formats: formats.map((option) => option.format ?? '') };
    }
    throw new Error(`${where}: a union the generator does not know`);
  }
  if (schema.items) field.items = fieldOf(schema.items, true, `${where}[]`);
  const sorted = [...new Set(field.formats)].sort();
  return { ...field, formats: sorted };
}

function inputOf(schema: z.ZodType, name: string): Record<string, Field> {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const { protocol } = zodSchema._zod.def as { protocol?: unknown };
      if (protocol instanceof RegExp) jsonSchema['x-protocol'] = protocol.source;
    },
  }) as JsonSchema;
  const required = new Set(json.required ?? []);
  return Object.fromEntries(Object.entries(json.properties ?? {}).map(([key, value]) => [key, fieldOf(value, required.has(key), `${name}.${key}`)]));
}

const goString = (value: string) => JSON.stringify(value);
const goStrings = (values: readonly string[]) => `[]string{${values.map(goString).join(', ')}}`;

function goField(field: Field): string {
  const parts = [`Type: ${goString(field.type)}`];
  if (field.required) parts.push('Required: true');
  for (const key of ['minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    const value = field[key];
    if (value !== undefined) parts.push(`${key[0]?.toUpperCase()}${key.slice(1)}: ptr(${value})`);
  }
  for (const key of ['minimum', 'maximum'] as const) {
    const value = field[key];
    if (value !== undefined) parts.push(`${key[0]?.toUpperCase()}${key.slice(1)}: ptr[float64](${value})`);
  }
  if (field.default !== undefined) parts.push(`Default: ${goString(JSON.stringify(field.default))}`);
  if (field.enum) parts.push(`Enum: ${goStrings(field.enum)}`);
  if (field.patterns.length > 0) parts.push(`Patterns: ${goStrings(field.patterns)}`);
  if (field.formats.length > 0) parts.push(`Formats: ${goStrings(field.formats)}`);
  if (field.orConst !== undefined) parts.push(`OrConst: ${goString(field.orConst)}`);
  if (field.protocol !== undefined) parts.push(`Protocol: ${goString(field.protocol)}`);
  if (field.nullable) parts.push('Nullable: true');
  if (field.items) parts.push(`Items: &Field{${goField(field.items)}}`);
  return parts.join(', ');
}

const INPUTS: [string, z.ZodType, string][] = [
  ['APIKeyInput', ApiKeyInputSchema, 'POST /keys'],
  ['RotationInput', RotationInputSchema, 'POST /keys/{id}/rotate and POST /webhook-secret/rotate'],
  ['AlertRuleInput', AlertRuleInputSchema, 'POST /alerts/rules'],
  ['AlertRulePatch', AlertRulePatchSchema, 'PATCH /alerts/rules/{id}'],
  ['AlertWebhookInput', AlertWebhookInputSchema, 'PUT /alerts/webhook'],
  ['DeploymentInput', DeploymentInputSchema, 'POST /deployments'],
];

export function generate(): string {
  const lines = [
    '// Code generated by generate.ts from packages/contracts; DO NOT EDIT.',
    '',
    'package contract',
    '',
    ...INPUTS.flatMap(([name, schema, route]) => {
      const fields = inputOf(schema, name);
      return [
        `// ${name} is the body of ${route}.`,
        `var ${name} = Input{`,
        ...Object.entries(fields).map(([key, field]) => `\t${goString(key)}: {${goField(field)}},`),
        '}',
        '',
      ];
    }),
  ];
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('./contract_gen.go', import.meta.url);
  writeFileSync(target, generate());
  execFileSync('gofmt', ['-w', target.pathname]);
}
