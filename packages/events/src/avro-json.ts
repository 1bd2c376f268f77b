import { isSealed } from './field-sealing';
import { isoMillis, isoTime } from './iso-time';

/**
 * The mapping between the contracts' JSON shape of a record and its Avro
 * value, compiled once per schema so encoding and decoding only walk it.
 * Timestamps are ISO strings in JSON and timestamp-millis longs in Avro;
 * JSON-valued fields (logicalType "json") are values in JSON and JSON text in
 * Avro; keys a record's schema does not know are collected as the residue,
 * which event schemas keep in their `extensions` field.
 */
type Mapping =
  | { readonly kind: 'plain' }
  | { readonly kind: 'timestamp' }
  | { readonly kind: 'json' }
  | { readonly kind: 'bytes' }
  | { readonly kind: 'nullable'; readonly inner: Mapping }
  | { readonly kind: 'array'; readonly items: Mapping }
  | RecordMapping;

type ToAvro = (json: unknown) => { value: Record<string, unknown>; residue: Residue | undefined };
type FromAvro = (avro: unknown, residue: unknown) => Record<string, unknown>;

export interface RecordMapping {
  readonly kind: 'record';
  readonly name: string;
  /** An array, not a map: decoding walks it for every record of every message. */
  readonly fields: ReadonlyArray<readonly [name: string, mapping: Mapping]>;
  readonly names: ReadonlySet<string>;
  /** The conversions generated for it, at its first use (generateToAvro, generateFromAvro). */
  toAvro: ToAvro | undefined;
  fromAvro: FromAvro | undefined;
}

/** Keys a sender sent that the schema does not know, nested as sent; absent when there are none. */
export type Residue = Record<string, unknown>;

const PLAIN: Mapping = { kind: 'plain' };
const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'string']);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compiles a record schema (parsed .avsc JSON); `hidden` top-level fields are left out of the JSON shape. */
export function compileRecord(schema: unknown, hidden: ReadonlySet<string> = new Set()): RecordMapping {
  const mapping = compile(schema, new Map(), '');
  if (mapping.kind !== 'record') throw new Error('a log message schema must be a record');
  const fields = mapping.fields.filter(([name]) => !hidden.has(name));
  return { ...mapping, fields, names: new Set(fields.map(([name]) => name)), toAvro: undefined, fromAvro: undefined };
}

function compile(schema: unknown, named: Map<string, Mapping>, namespace: string): Mapping {
  if (typeof schema === 'string') {
    if (PRIMITIVES.has(schema)) return PLAIN;
    if (schema === 'bytes') return { kind: 'bytes' };
    return named.get(qualify(schema, namespace)) ?? PLAIN;
  }
  if (Array.isArray(schema)) return compileUnion(schema, named, namespace);
  if (!isObject(schema)) throw new Error(`not an Avro schema: ${JSON.stringify(schema)}`);

  const { type, logicalType } = schema;
  if (type === 'long' && logicalType === 'timestamp-millis') return { kind: 'timestamp' };
  if (type === 'string' && logicalType === 'json') return { kind: 'json' };
  switch (type) {
    case 'record':
    case 'error':
      return compileRecordSchema(schema, named, namespace);
    case 'array': {
      const items = compile(schema.items, named, namespace);
      return items.kind === 'plain' ? PLAIN : { kind: 'array', items };
    }
    case 'map': {
      if (compile(schema.values, named, namespace).kind !== 'plain') throw new Error('maps of converted values are not supported');
      return PLAIN;
    }
    case 'enum':
    case 'fixed':
      named.set(qualify(String(schema.name), stringOr(schema.namespace, namespace)), PLAIN);
      return PLAIN;
    default:
      return compile(type, named, namespace);
  }
}

function compileUnion(branches: unknown[], named: Map<string, Mapping>, namespace: string): Mapping {
  const others = branches.filter((branch) => branch !== 'null');
  const mappings = others.map((branch) => compile(branch, named, namespace));
  if (mappings.every((mapping) => mapping.kind === 'plain')) return PLAIN;
  const [inner] = mappings;
  if (mappings.length !== 1 || inner === undefined || others.length === branches.length) {
    throw new Error('only ["null", T] unions may hold converted values');
  }
  return { kind: 'nullable', inner };
}

function compileRecordSchema(schema: Record<string, unknown>, named: Map<string, Mapping>, outer: string): RecordMapping {
  const fullName = qualify(String(schema.name), stringOr(schema.namespace, outer));
  const namespace = fullName.includes('.') ? fullName.slice(0, fullName.lastIndexOf('.')) : '';
  const fields: [string, Mapping][] = [];
  const names = new Set<string>();
  const record: RecordMapping = { kind: 'record', name: fullName, fields, names, toAvro: undefined, fromAvro: undefined };
  // Registered before its fields are compiled, so a recursive reference finds it.
  named.set(fullName, record);
  for (const field of Array.isArray(schema.fields) ? schema.fields : []) {
    if (!isObject(field)) continue;
    fields.push([String(field.name), compile(field.type, named, namespace)]);
    names.add(String(field.name));
  }
  return record;
}

function qualify(name: string, namespace: string): string {
  return name.includes('.') || namespace === '' ? name : `${namespace}.${name}`;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** A property access in generated code; field names come from schema files, quoted all the same. */
const at = (object: string, name: string) => `${object}[${JSON.stringify(name)}]`;

/**
 * Each record's conversions are generated once as straight-line code, as avsc generates its readers and writers: a
 * loop over the fields built each object key by key and a result object per field, which cost as much as the Avro
 * encoding itself. The object literals give every record of a schema one shape.
 */
function generate<F>(name: string, parameters: Record<string, unknown>, body: string): F {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is built from schema field names, each quoted by JSON.stringify
  const factory = new Function(...Object.keys(parameters), `return function ${name}(input, extra) {\n${body}\n};`) as (...values: unknown[]) => F;
  return factory(...Object.values(parameters));
}

/** In the generated code, field i's sent value is x<i>, and a record field's conversion (its value and residue) c<i>. */
function generateToAvro(mapping: RecordMapping): ToAvro {
  const lines: string[] = [
    'if (!isObject(input)) return { value: {}, residue: undefined };',
    'let residue;',
    // A null says nothing the reader's default does not: it is what the contract fills in for a field a later version added.
    'for (const key of Object.keys(input)) if (!names.has(key) && input[key] !== null) (residue ??= {})[key] = input[key];',
  ];
  const values: string[] = [];
  const converters: Mapping[] = [];
  mapping.fields.forEach(([name, field], i) => {
    lines.push(`const x${i} = ${at('input', name)};`);
    const record = field.kind === 'record' ? field : field.kind === 'nullable' && field.inner.kind === 'record' ? field.inner : undefined;
    if (field.kind === 'plain') {
      values.push(`${JSON.stringify(name)}: x${i}`);
    } else if (record === undefined) {
      converters[i] = field;
      // Left out, avsc writes the field's default, as it does for an undefined value.
      values.push(`${JSON.stringify(name)}: x${i} === undefined ? undefined : convert(converters[${i}], x${i})`);
    } else {
      converters[i] = record;
      const skip = field.kind === 'nullable' ? `x${i} === undefined || x${i} === null` : `x${i} === undefined`;
      lines.push(
        `const c${i} = ${skip} ? undefined : record(converters[${i}], x${i});`,
        `if (c${i} !== undefined && c${i}.residue !== undefined) (residue ??= {})[${JSON.stringify(name)}] = c${i}.residue;`,
      );
      values.push(`${JSON.stringify(name)}: c${i} === undefined ? x${i} : c${i}.value`);
    }
  });
  lines.push(`return { value: { ${values.join(', ')} }, residue };`);
  return generate<ToAvro>('toAvro', { isObject, names: mapping.names, converters, convert: toAvroValue, record: recordToAvro }, lines.join('\n'));
}

/** The Avro value of a JSON record and its residue; values that do not fit are passed on for avsc to reject with their path. */
export function recordToAvro(mapping: RecordMapping, json: unknown): { value: Record<string, unknown>; residue: Residue | undefined } {
  mapping.toAvro ??= generateToAvro(mapping);
  return mapping.toAvro(json);
}

/** A field's Avro value; a record's residue is kept only where the record is a field of its own, not an array's item. */
function toAvroValue(mapping: Mapping, json: unknown): unknown {
  switch (mapping.kind) {
    case 'plain':
      return json;
    case 'timestamp': {
      const ms = typeof json === 'string' ? isoMillis(json) : Number.NaN;
      return Number.isNaN(ms) ? json : ms;
    }
    case 'json':
      return JSON.stringify(json);
    case 'bytes':
      return json instanceof Uint8Array && !Buffer.isBuffer(json) ? Buffer.from(json.buffer, json.byteOffset, json.byteLength) : json;
    case 'nullable':
      return json === null ? null : toAvroValue(mapping.inner, json);
    case 'array':
      return Array.isArray(json) ? json.map((item) => toAvroValue(mapping.items, item)) : json;
    case 'record':
      return recordToAvro(mapping, json).value;
    default: {
      const unknownKind: never = mapping;
      throw new Error(`unknown mapping ${JSON.stringify(unknownKind)}`);
    }
  }
}

function generateFromAvro(mapping: RecordMapping): FromAvro {
  const converters: Mapping[] = [];
  const values = mapping.fields.map(([name, field], i) => {
    if (field.kind === 'plain') return `${JSON.stringify(name)}: source[${JSON.stringify(name)}]`;
    converters[i] = field;
    return `${JSON.stringify(name)}: convert(converters[${i}], ${at('source', name)}, extra === undefined ? undefined : ${at('extra', name)})`;
  });
  const body = [
    'const source = isObject(input) ? input : {};',
    'extra = isObject(extra) ? extra : undefined;',
    `const json = { ${values.join(', ')} };`,
    // A key this reader knows but the writer did not is a field promoted from the residue: the sender's value wins over the default.
    'if (extra !== undefined) for (const key of Object.keys(extra)) if (json[key] === null || json[key] === undefined) json[key] = extra[key];',
    'return json;',
  ];
  return generate<FromAvro>('fromAvro', { isObject, converters, convert: fromAvro }, body.join('\n'));
}

/** The JSON shape of a decoded Avro record, with the residue merged back. */
export function recordFromAvro(mapping: RecordMapping, avro: unknown, residue?: unknown): Record<string, unknown> {
  mapping.fromAvro ??= generateFromAvro(mapping);
  return mapping.fromAvro(avro, residue);
}

function fromAvro(mapping: Mapping, avro: unknown, residue: unknown): unknown {
  switch (mapping.kind) {
    case 'plain':
      return avro;
    case 'timestamp':
      return isoTime(Number(avro));
    case 'json':
      // A sealed value whose key the reader does not hold stays the sealed text.
      return isSealed(avro) ? avro : JSON.parse(String(avro));
    case 'bytes':
      // A copy: the decoded slice would otherwise share memory with the consumer's message buffer.
      return avro instanceof Uint8Array ? Buffer.from(avro) : avro;
    case 'nullable':
      return avro === null || avro === undefined ? null : fromAvro(mapping.inner, avro, residue);
    case 'array':
      return Array.isArray(avro) ? avro.map((item) => fromAvro(mapping.items, item, undefined)) : avro;
    case 'record':
      return recordFromAvro(mapping, avro, residue);
    default: {
      const unknownKind: never = mapping;
      throw new Error(`unknown mapping ${JSON.stringify(unknownKind)}`);
    }
  }
}
