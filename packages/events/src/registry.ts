import avro from 'avsc';
import type { Type } from 'avsc';
import { compileRecord, isObject, type RecordMapping } from './avro-json';
import { fingerprintHex, parsingCanonicalForm, rabinFingerprint64 } from './fingerprint';
import type { SchemaFile } from './schema-files';

type Resolver = ReturnType<Type['createResolver']>;

/** The field of an event schema that holds what the sender sent and the schema does not know. */
export const EXTENSIONS_FIELD = 'extensions';
const HIDDEN_FIELDS: ReadonlySet<string> = new Set([EXTENSIONS_FIELD]);

export interface SchemaEntry extends SchemaFile {
  /** The parsed .avsc file. */
  readonly schema: unknown;
  readonly type: Type;
  readonly canonicalForm: string;
  readonly fingerprint: bigint;
  /** The fingerprint as 16 hex digits, for Kafka headers. */
  readonly fingerprintHex: string;
  /** The JSON shape of the record, without the extensions field. */
  readonly mapping: RecordMapping;
  /** Whether the schema keeps unknown fields in an extensions field. */
  readonly extensible: boolean;
}

export interface SchemaRegistry {
  readonly entries: readonly SchemaEntry[];
  byFingerprint(fingerprint: bigint): SchemaEntry | undefined;
  find(subject: string, version: string): SchemaEntry | undefined;
  /**
   * The schema a message of `version` is written with: the subject's newest
   * file dated on or before it. An event version is a date for the whole
   * API; a type unchanged since an earlier version keeps that version's file.
   * Undefined for a version no file carries.
   */
  inForce(subject: string, version: string): SchemaEntry | undefined;
  /** The newest version of the subject: the reader every older writer resolves to. */
  current(subject: string): SchemaEntry | undefined;
  versions(subject: string): readonly string[];
  /** How to read `writer`'s bytes as the current reader of its subject; undefined when the writer is that reader. */
  resolver(writer: SchemaEntry): Resolver | undefined;
}

function hasField(schema: unknown, name: string): boolean {
  return isObject(schema) && Array.isArray(schema.fields) && schema.fields.some((field) => isObject(field) && field.name === name);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function toEntry(file: SchemaFile): SchemaEntry {
  let schema: unknown;
  let type: Type;
  try {
    schema = JSON.parse(file.text);
    // A fresh parse for avsc, which may keep references into it. Unwrapped unions keep nullable
    // fields plain values; an ambiguous union then fails here, at load, not per message.
    type = avro.Type.forSchema(JSON.parse(file.text) as avro.Schema, { wrapUnions: false });
  } catch (error) {
    throw new Error(`${file.path}: not a valid Avro schema: ${messageOf(error)}`, { cause: error });
  }
  const canonicalForm = parsingCanonicalForm(type);
  const fingerprint = rabinFingerprint64(canonicalForm);
  const mapping = compileRecord(schema, HIDDEN_FIELDS);
  const extensible = hasField(schema, EXTENSIONS_FIELD);
  return { ...file, schema, type, canonicalForm, fingerprint, fingerprintHex: fingerprintHex(fingerprint), mapping, extensible };
}

export function createSchemaRegistry(files: readonly SchemaFile[]): SchemaRegistry {
  const entries = files.map(toEntry);
  const byFingerprint = new Map<bigint, SchemaEntry>();
  const bySubject = new Map<string, SchemaEntry[]>();

  for (const entry of entries) {
    const same = byFingerprint.get(entry.fingerprint);
    if (same !== undefined && same.subject !== entry.subject) {
      throw new Error(`${entry.path} and ${same.path} have the same fingerprint ${entry.fingerprintHex}`);
    }
    // Two versions of a subject may share a canonical form (a documentation-only version): either reads the same bytes.
    if (same === undefined) byFingerprint.set(entry.fingerprint, entry);
    bySubject.set(entry.subject, [...(bySubject.get(entry.subject) ?? []), entry]);
  }
  for (const versions of bySubject.values()) versions.sort((a, b) => a.version.localeCompare(b.version));

  const current = (subject: string) => bySubject.get(subject)?.at(-1);
  const released = new Set(entries.map((entry) => entry.version));
  const resolvers = new Map<SchemaEntry, Resolver>();
  for (const writer of entries) {
    const reader = current(writer.subject);
    if (reader === undefined || reader.fingerprint === writer.fingerprint) continue;
    try {
      resolvers.set(writer, reader.type.createResolver(writer.type));
    } catch (error) {
      throw new Error(`${writer.path} cannot be read as ${reader.path}: ${messageOf(error)}`, { cause: error });
    }
  }

  return {
    entries,
    byFingerprint: (fingerprint) => byFingerprint.get(fingerprint),
    find: (subject, version) => bySubject.get(subject)?.find((entry) => entry.version === version),
    // Only a released version (a date some file carries): a version from the future names no schema.
    inForce: (subject, version) => (released.has(version) ? bySubject.get(subject)?.findLast((entry) => entry.version <= version) : undefined),
    current,
    versions: (subject) => (bySubject.get(subject) ?? []).map((entry) => entry.version),
    resolver: (writer) => resolvers.get(writer),
  };
}
