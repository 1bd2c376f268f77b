import { z } from 'zod';

/** The most spans one export request may carry: SDK batch processors send 512 by default. */
export const MAX_SPANS = 10_000;
/** The most attributes a span, resource or scope may carry: SDKs cap them at 128 by default. */
export const MAX_ATTRIBUTES = 1_024;

/**
 * The OTLP export request as protobufjs's toObject and OTLP/JSON both give
 * it: lowerCamelCase keys, 64-bit integers as decimal strings (or JSON
 * numbers), ids as bytes (protobuf) or hex (JSON), enums as integers. Only
 * what Earshot reads is checked; unknown fields are ignored, as receivers must.
 */
const hexOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

const HEX = /^[0-9a-f]*$/;

/** An id as protobuf gives it (bytes) or OTLP/JSON does (hex text), as lowercase hex. */
const lowerHex = (value: Uint8Array | string) => (typeof value === 'string' ? value.toLowerCase() : hexOf(value));

/** An id of `bytes` bytes, as hex; one transform, not a chain: each step of a chain is a pipe zod runs per span. */
function id(bytes: number, what: string) {
  return z.union([z.instanceof(Uint8Array), z.string()]).transform((value, ctx) => {
    const hex = lowerHex(value);
    if (hex.length === bytes * 2 && HEX.test(hex) && !/^0+$/.test(hex)) return hex;
    ctx.addIssue({ code: 'custom', message: `${what} must be ${bytes} bytes and not all zero` });
    return z.NEVER;
  });
}

/** A parent span id: absent, empty, or 8 bytes. */
const parentId = z
  .union([z.instanceof(Uint8Array), z.string()])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return null;
    const hex = lowerHex(value);
    if (hex !== '' && (hex.length !== 16 || !HEX.test(hex))) {
      ctx.addIssue({ code: 'custom', message: 'parentSpanId must be empty or 8 bytes' });
      return z.NEVER;
    }
    // All zeros is how some exporters say "no parent".
    return hex === '' || /^0+$/.test(hex) ? null : hex;
  });

/** Nanoseconds since the epoch, read as milliseconds (Avro timestamps keep no more). */
const unixNano = z.union([z.string().regex(/^\d{1,20}$/), z.number().int().nonnegative()]).transform((value) => Number(BigInt(value) / 1_000_000n));

const int64 = z.union([z.string().regex(/^-?\d{1,20}$/), z.number().int()]).transform((value) => Number(value));

export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

interface AnyValueInput {
  stringValue?: string | null | undefined;
  boolValue?: boolean | null | undefined;
  intValue?: string | number | null | undefined;
  doubleValue?: number | null | undefined;
  bytesValue?: string | Uint8Array | null | undefined;
  arrayValue?: { values?: AnyValueInput[] | null | undefined } | null | undefined;
  kvlistValue?: { values?: { key: string; value?: AnyValueInput | null | undefined }[] | null | undefined } | null | undefined;
}

const AnyValueSchema: z.ZodType<AttributeValue, AnyValueInput> = z.lazy(() =>
  z
    .object({
      stringValue: z.string().nullish(),
      boolValue: z.boolean().nullish(),
      intValue: int64.nullish(),
      doubleValue: z.number().nullish(),
      bytesValue: z.union([z.string(), z.instanceof(Uint8Array).transform((b) => Buffer.from(b).toString('base64'))]).nullish(),
      arrayValue: z.object({ values: z.array(AnyValueSchema).max(MAX_ATTRIBUTES).nullish() }).nullish(),
      kvlistValue: z
        .object({
          values: z
            .array(z.lazy(() => KeyValueSchema))
            .max(MAX_ATTRIBUTES)
            .nullish(),
        })
        .nullish(),
    })
    .transform((v): AttributeValue => {
      if (v.stringValue !== undefined && v.stringValue !== null) return v.stringValue;
      if (v.boolValue !== undefined && v.boolValue !== null) return v.boolValue;
      if (v.intValue !== undefined && v.intValue !== null) return v.intValue;
      if (v.doubleValue !== undefined && v.doubleValue !== null) return v.doubleValue;
      if (v.bytesValue !== undefined && v.bytesValue !== null) return v.bytesValue;
      if (v.arrayValue) return v.arrayValue.values ?? [];
      if (v.kvlistValue) return Object.fromEntries((v.kvlistValue.values ?? []).map((kv) => [kv.key, kv.value]));
      return null;
    }),
);

const KeyValueSchema = z.object({
  key: z.string().max(1_024),
  value: AnyValueSchema.nullish().transform((value) => value ?? null),
});

const attributes = z
  .array(KeyValueSchema)
  .max(MAX_ATTRIBUTES, `at most ${MAX_ATTRIBUTES} attributes`)
  .nullish()
  .transform((list) => Object.fromEntries((list ?? []).map((kv) => [kv.key, kv.value])) as Record<string, AttributeValue>);

const SpanSchema = z.object({
  traceId: id(16, 'traceId'),
  spanId: id(8, 'spanId'),
  parentSpanId: parentId,
  name: z.string().max(1_024),
  startTimeUnixNano: unixNano,
  endTimeUnixNano: unixNano,
  attributes,
  status: z
    .object({ code: z.number().int().nullish(), message: z.string().nullish() })
    .nullish()
    .transform((s) => ({ code: s?.code ?? 0, message: s?.message ?? null })),
});

const ScopeSchema = z
  .object({ name: z.string().nullish(), version: z.string().nullish() })
  .nullish()
  .transform((s) => ({ name: s?.name ?? '', version: s?.version ?? null }));

const ResourceSchema = z
  .object({ attributes })
  .nullish()
  .transform((r) => ({ attributes: r?.attributes ?? {} }));

export const ExportTraceServiceRequestSchema = z
  .object({
    resourceSpans: z
      .array(
        z.object({
          resource: ResourceSchema,
          scopeSpans: z
            .array(
              z.object({
                scope: ScopeSchema,
                spans: z
                  .array(SpanSchema)
                  .nullish()
                  .transform((s) => s ?? []),
              }),
            )
            .nullish(),
        }),
      )
      .nullish(),
  })
  .refine((request) => spanCount(request) <= MAX_SPANS, `an export request holds at most ${MAX_SPANS} spans`);

export type ExportTraceServiceRequest = z.output<typeof ExportTraceServiceRequestSchema>;

const listOf = (value: unknown, key: string): unknown[] => {
  const list = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? list : [];
};

/**
 * What is over the limits, found before the whole request is checked: a
 * request of a million attributes is refused by counting, not by validating
 * each of them.
 */
export function traceLimitBreach(request: unknown): string | null {
  let spans = 0;
  for (const [r, resourceSpans] of listOf(request, 'resourceSpans').entries()) {
    if (listOf((resourceSpans as Record<string, unknown> | null)?.resource, 'attributes').length > MAX_ATTRIBUTES)
      return `resourceSpans.${r}.resource has more than ${MAX_ATTRIBUTES} attributes`;
    for (const [s, scopeSpans] of listOf(resourceSpans, 'scopeSpans').entries()) {
      for (const [i, span] of listOf(scopeSpans, 'spans').entries()) {
        spans += 1;
        const count = listOf(span, 'attributes').length;
        if (count > MAX_ATTRIBUTES) return `resourceSpans.${r}.scopeSpans.${s}.spans.${i} has ${count} attributes; at most ${MAX_ATTRIBUTES}`;
      }
    }
  }
  return spans > MAX_SPANS ? `an export request holds at most ${MAX_SPANS} spans; this one holds ${spans}` : null;
}

function spanCount(request: { resourceSpans?: { scopeSpans?: { spans: unknown[] }[] | null }[] | null }): number {
  return (request.resourceSpans ?? []).reduce((n, r) => n + (r.scopeSpans ?? []).reduce((m, s) => m + s.spans.length, 0), 0);
}

const points = z
  .object({ dataPoints: z.array(z.unknown()).nullish() })
  .nullish()
  .transform((d) => d?.dataPoints?.length ?? 0);

/** A metric is read for its name and how many data points it carries: Earshot keeps the per-turn figures from the spans they summarize. */
const MetricSchema = z
  .object({ name: z.string(), gauge: points, sum: points, histogram: points, exponentialHistogram: points, summary: points })
  .transform((m) => ({ name: m.name, dataPoints: m.gauge + m.sum + m.histogram + m.exponentialHistogram + m.summary }));

export const ExportMetricsServiceRequestSchema = z.object({
  resourceMetrics: z
    .array(
      z.object({
        scopeMetrics: z
          .array(
            z.object({
              metrics: z
                .array(MetricSchema)
                .nullish()
                .transform((m) => m ?? []),
            }),
          )
          .nullish(),
      }),
    )
    .nullish(),
});

export type ExportMetricsServiceRequest = z.output<typeof ExportMetricsServiceRequestSchema>;
