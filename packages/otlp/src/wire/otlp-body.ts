import { gunzipSync } from 'node:zlib';
import type { z } from 'zod';
import { OTLP_MESSAGES, type StaticMessage } from './generated';
import {
  ExportMetricsServiceRequestSchema,
  ExportTraceServiceRequestSchema,
  traceLimitBreach,
  type ExportMetricsServiceRequest,
  type ExportTraceServiceRequest,
} from './otlp-request';

/** The two OTLP/HTTP encodings; an answer uses the request's. */
export type OtlpEncoding = 'protobuf' | 'json';

/** The content types each encoding arrives under (`application/protobuf` is what some exporters send). */
export const OTLP_CONTENT_TYPES: Readonly<Record<string, OtlpEncoding>> = {
  'application/x-protobuf': 'protobuf',
  'application/protobuf': 'protobuf',
  'application/json': 'json',
};

/** The most a gzipped body may inflate to: a small body must not become a large one in memory. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** Why a body holds no export request: bad data, or more than may be inflated (the error catalogue's codes). */
export type OtlpBodyResult<T> =
  | { ok: true; request: T }
  | {
      ok: false;
      code: 'VALIDATION_ERROR' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE';
      message: string;
      /** Response headers the refusal carries: which codings would have been taken. */
      headers?: Record<string, string>;
    };

export interface ReceivedOtlp {
  bytes: Buffer;
  encoding: OtlpEncoding;
  /** The Content-Encoding header, if any. */
  contentEncoding: string | undefined;
}

function inflate(received: ReceivedOtlp): OtlpBodyResult<Buffer> {
  const coding = (received.contentEncoding ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' || coding === '') return { ok: true, request: received.bytes };
  if (coding !== 'gzip')
    return {
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: `Content-Encoding ${coding} is not supported: send gzip or none`,
      headers: { 'accept-encoding': 'gzip' },
    };
  try {
    return { ok: true, request: gunzipSync(received.bytes, { maxOutputLength: MAX_INFLATED_BYTES }) };
  } catch (error) {
    const tooLarge = error instanceof RangeError || (error instanceof Error && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE');
    return tooLarge
      ? { ok: false, code: 'PAYLOAD_TOO_LARGE', message: `the body inflates to more than ${MAX_INFLATED_BYTES} bytes` }
      : { ok: false, code: 'VALIDATION_ERROR', message: `the body is not valid gzip: ${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The decoded message as plain data: protobuf through the generated code,
 * JSON as it is. The limits are checked on the decoded message, before it is
 * converted: the conversion costs as much again as the decoding.
 */
function plain(bytes: Buffer, encoding: OtlpEncoding, message: StaticMessage, breach: (request: unknown) => string | null): OtlpBodyResult<unknown> {
  let decoded: unknown;
  try {
    decoded = encoding === 'json' ? (JSON.parse(bytes.toString('utf8')) as unknown) : message.decode(bytes);
  } catch (error) {
    return {
      ok: false,
      code: 'VALIDATION_ERROR',
      message: `the body is not a valid ${encoding === 'json' ? 'OTLP/JSON' : 'OTLP protobuf'} message: ${messageOf(error)}`,
    };
  }
  const over = breach(decoded);
  if (over !== null) return { ok: false, code: 'VALIDATION_ERROR', message: `the export request is over Earshot's limits: ${over}` };
  return { ok: true, request: encoding === 'json' ? decoded : message.toObject(decoded as object, { longs: String }) };
}

function read<S extends z.ZodType>(
  received: ReceivedOtlp,
  message: StaticMessage,
  schema: S,
  breach: (request: unknown) => string | null = () => null,
): OtlpBodyResult<z.output<S>> {
  const inflated = inflate(received);
  if (!inflated.ok) return inflated;
  const decoded = plain(inflated.request, received.encoding, message, breach);
  if (!decoded.ok) return decoded;
  const parsed = schema.safeParse(decoded.request);
  if (parsed.success) return { ok: true, request: parsed.data };
  const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
  return { ok: false, code: 'VALIDATION_ERROR', message: `the export request is invalid: ${issues.join('; ')}${more}` };
}

/** An ExportTraceServiceRequest from a POST /v1/traces body: inflated, decoded and checked, or why not. */
export function readTraceRequest(received: ReceivedOtlp): OtlpBodyResult<ExportTraceServiceRequest> {
  return read(received, OTLP_MESSAGES.traceRequest, ExportTraceServiceRequestSchema, traceLimitBreach);
}

/** An ExportMetricsServiceRequest from a POST /v1/metrics body. */
export function readMetricsRequest(received: ReceivedOtlp): OtlpBodyResult<ExportMetricsServiceRequest> {
  return read(received, OTLP_MESSAGES.metricsRequest, ExportMetricsServiceRequestSchema);
}
