import {
  CallSchema,
  DeadLetterSchema,
  DeliverySchema,
  EVENT_DATA_SCHEMAS,
  EVENT_TYPES,
  EVENT_VERSIONS,
  FieldIssueSchema,
  ResponseLatencySchema,
  StoredEventSchema,
} from '@earshot/contracts';
import { describe, expect, it } from 'vitest';
import { isObject } from './avro-json';
import { schemaRegistry } from './default-codec';
import { EXTENSIONS_FIELD } from './registry';

/**
 * The zod contracts validate what goes in; the Avro schemas define what is
 * written. These tests hold them together field by field, so that whatever
 * zod accepts Avro can encode, and what Avro decodes has the contract's shape.
 */
interface Parser {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

const ZOD_RECORDS: Readonly<Record<string, Parser & { shape: Record<string, Parser> }>> = {
  Call: CallSchema,
  ResponseLatency: ResponseLatencySchema,
  FieldIssue: FieldIssueSchema,
};

const accepts = (parser: Parser, value: unknown) => parser.safeParse(value).success;

/** Values a zod field must refuse because the Avro type cannot hold them. */
const UNFIT: Readonly<Record<string, readonly unknown[]>> = {
  string: [1, true],
  int: [2 ** 31, 0.5, '1'],
  long: [0.5, 2 ** 53, '1'],
  double: ['1', Number.NaN],
  boolean: ['true', 1],
  bytes: ['raw'],
};

function checkValueFits(path: string, avroType: unknown, zod: Parser): void {
  if (Array.isArray(avroType)) {
    const [nullBranch, branch, ...rest] = avroType;
    expect([nullBranch, rest.length], `${path}: nullable unions are ["null", T]`).toEqual(['null', 0]);
    expect(accepts(zod, null), `${path} takes null`).toBe(true);
    return checkValueFits(path, branch, zod);
  }
  if (typeof avroType === 'string') {
    for (const value of UNFIT[avroType] ?? []) expect(accepts(zod, value), `${path} refuses ${String(value)}`).toBe(false);
    return;
  }
  if (!isObject(avroType)) throw new Error(`${path}: unexpected Avro type`);
  if (avroType.logicalType === 'timestamp-millis') {
    expect(accepts(zod, '2026-01-08T09:30:00.000Z') && !accepts(zod, 'yesterday'), `${path} is an ISO timestamp`).toBe(true);
  } else if (avroType.logicalType === 'json') {
    expect(accepts(zod, { any: ['json', 1] }), `${path} takes any JSON`).toBe(true);
  } else if (avroType.type === 'enum') {
    // zod lists the values it allows when it refuses one.
    const { error } = zod.safeParse('not-a-symbol');
    const issue = isObject(error) && Array.isArray(error.issues) ? error.issues[0] : undefined;
    const allowed = isObject(issue) ? issue.values : undefined;
    expect(allowed, `${path} allows exactly the Avro symbols`).toEqual(avroType.symbols);
  } else if (avroType.type === 'map') {
    expect(accepts(zod, { a: 'b' }) && !accepts(zod, { a: 1 }), `${path} is a map of strings`).toBe(true);
  } else if (avroType.type === 'array') {
    checkValueFits(`${path}[]`, avroType.items, { safeParse: (item) => zod.safeParse([item]) });
  } else if (avroType.type === 'record') {
    const record = ZOD_RECORDS[String(avroType.name)];
    if (record === undefined) throw new Error(`${path}: no zod schema known for record ${String(avroType.name)}`);
    checkRecord(path, avroType, record.shape);
  } else {
    checkValueFits(path, avroType.type, zod);
  }
}

function checkRecord(path: string, avroRecord: unknown, zodShape: Record<string, Parser>): void {
  const fields = isObject(avroRecord) && Array.isArray(avroRecord.fields) ? avroRecord.fields.filter(isObject) : [];
  const names = fields.map((field) => String(field.name)).filter((name) => name !== EXTENSIONS_FIELD);
  expect(Object.keys(zodShape).sort(), `${path}: zod and Avro name the same fields`).toEqual(names.sort());
  for (const field of fields) {
    const name = String(field.name);
    const zod = zodShape[name];
    if (zod === undefined) continue;
    const absent = zod.safeParse(undefined);
    if ('default' in field) {
      expect(absent, `${path}.${name} defaults as in Avro`).toEqual({ success: true, data: field.default });
    } else {
      expect(absent.success, `${path}.${name} is required, as in Avro`).toBe(false);
    }
    checkValueFits(`${path}.${name}`, field.type, zod);
  }
}

/** The contracts describe the current version: each type's newest file. */
const subjectSchema = (subject: string) => schemaRegistry().current(subject)?.schema;

describe.each(EVENT_TYPES)('%s', (type) => {
  it('has a schema in force at every supported version', () => {
    for (const version of EVENT_VERSIONS) expect(schemaRegistry().inForce(type, version), `schemas/${type}/<on or before ${version}>.avsc`).toBeDefined();
  });

  it('agrees with its zod contract, envelope, call and data', () => {
    const member = StoredEventSchema.options.find((option) => option.shape.type.value === type);
    if (member === undefined) throw new Error(`no contract for ${type}`);
    const schema = subjectSchema(type);
    const { call: _call, data: _data, ...envelope } = member.shape;
    const fields = isObject(schema) && Array.isArray(schema.fields) ? schema.fields.filter(isObject) : [];
    const envelopeFields = fields.filter((field) => field.name !== 'call' && field.name !== 'data');
    checkRecord(type, { fields: envelopeFields }, envelope);
    checkValueFits(`${type}.call`, fields.find((field) => field.name === 'call')?.type, member.shape.call);
    checkRecord(`${type}.data`, fields.find((field) => field.name === 'data')?.type, EVENT_DATA_SCHEMAS[type].shape);
  });
});

describe('dead letters and deliveries', () => {
  it('agree with their zod contracts', () => {
    checkRecord('dead-letter', subjectSchema('dead-letter'), DeadLetterSchema.shape);
    checkRecord('delivery', subjectSchema('delivery'), DeliverySchema.shape);
  });
});
