import { isSealed } from './field-sealing';
import { isoTime } from './iso-time';

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

export interface RecordMapping {
  readonly kind: 'record';
  readonly name: string;
  /** An array, not a map: decoding walks it for every record of every message. */
  readonly fields: ReadonlyArray<readonly [name: string, mapping: Mapping]>;
  readonly names: ReadonlySet<string>;
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
  return { ...mapping, fields, names: new Set(fields.map(([name]) => name)) };
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
  const record: RecordMapping = { kind: 'record', name: fullName, fields, names };
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

interface Converted {
  readonly value: unknown;
  readonly residue?: Residue | undefined;
}

/** The Avro value of a JSON record and its residue; values that do not fit are passed on for avsc to reject with their path. */
export function recordToAvro(mapping: RecordMapping, json: unknown): { value: Record<string, unknown>; residue: Residue | undefined } {
  if (!isObject(json)) return { value: {}, residue: undefined };
  const value: Record<string, unknown> = {};
  let residue: Residue | undefined;
  for (const key of Object.keys(json)) {
    // A null says nothing the reader's default does not: it is what the contract fills in for a field a later version added.
    if (!mapping.names.has(key) && json[key] !== null) (residue ??= {})[key] = json[key];
  }
  for (const [name, field] of mapping.fields) {
    const fieldValue = json[name];
    // Left out, avsc writes the field's default.
    if (fieldValue === undefined) continue;
    const converted = toAvro(field, fieldValue);
    value[name] = converted.value;
    if (converted.residue !== undefined) (residue ??= {})[name] = converted.residue;
  }
  return { value, residue };
}

function toAvro(mapping: Mapping, json: unknown): Converted {
  switch (mapping.kind) {
    case 'plain':
      return { value: json };
    case 'timestamp': {
      const ms = typeof json === 'string' ? Date.parse(json) : Number.NaN;
      return { value: Number.isNaN(ms) ? json : ms };
    }
    case 'json':
      return { value: JSON.stringify(json) };
    case 'bytes':
      return { value: json instanceof Uint8Array && !Buffer.isBuffer(json) ? Buffer.from(json.buffer, json.byteOffset, json.byteLength) : json };
    case 'nullable':
      return json === null ? { value: null } : toAvro(mapping.inner, json);
    case 'array':
      return { value: Array.isArray(json) ? json.map((item) => toAvro(mapping.items, item).value) : json };
    case 'record':
      return recordToAvro(mapping, json);
    default: {
      const unknownKind: never = mapping;
      throw new Error(`unknown mapping ${JSON.stringify(unknownKind)}`);
    }
  }
}

/** The JSON shape of a decoded Avro record, with the residue merged back. */
export function recordFromAvro(mapping: RecordMapping, avro: unknown, residue?: unknown): Record<string, unknown> {
  const source = isObject(avro) ? avro : {};
  const extra = isObject(residue) ? residue : undefined;
  const json: Record<string, unknown> = {};
  for (const [name, field] of mapping.fields) {
    const value = source[name];
    json[name] = field.kind === 'plain' ? value : fromAvro(field, value, extra?.[name]);
  }
  if (extra !== undefined) {
    for (const key of Object.keys(extra)) {
      // A key this reader knows but the writer did not is a field promoted from the residue: the sender's value wins over the default.
      if (json[key] === null || json[key] === undefined) json[key] = extra[key];
    }
  }
  return json;
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
