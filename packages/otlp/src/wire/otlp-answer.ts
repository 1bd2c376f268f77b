import { OTLP_MESSAGES } from './generated';
import type { OtlpEncoding } from './otlp-body';
import { encodeStatusProtobuf, statusJson, type RpcStatus } from './rpc-status';

export interface OtlpAnswer {
  contentType: string;
  body: Buffer;
}

const CONTENT_TYPE: Record<OtlpEncoding, string> = { protobuf: 'application/x-protobuf', json: 'application/json' };

/**
 * The 200 answer to an export: empty on full success (partial_success left
 * unset, as the spec asks), else the count rejected and why; a warning alone
 * has a count of 0 and a message.
 */
export function exportAnswer(signal: 'traces' | 'metrics', encoding: OtlpEncoding, rejected: number, message: string | null): OtlpAnswer {
  const partial = rejected > 0 || message !== null;
  const counted = signal === 'traces' ? 'rejectedSpans' : 'rejectedDataPoints';
  const response = partial ? { partialSuccess: { [counted]: rejected, errorMessage: message ?? '' } } : {};
  if (encoding === 'json') return { contentType: CONTENT_TYPE.json, body: Buffer.from(JSON.stringify(response)) };
  const type = signal === 'traces' ? OTLP_MESSAGES.traceResponse : OTLP_MESSAGES.metricsResponse;
  return { contentType: CONTENT_TYPE.protobuf, body: Buffer.from(type.encode(type.fromObject(response)).finish()) };
}

/** A failure's body: google.rpc.Status in the request's encoding (protobuf when the request's could not be told). */
export function failureAnswer(encoding: OtlpEncoding | undefined, status: RpcStatus): OtlpAnswer {
  if (encoding === 'json') return { contentType: CONTENT_TYPE.json, body: Buffer.from(JSON.stringify(statusJson(status))) };
  return { contentType: CONTENT_TYPE.protobuf, body: encodeStatusProtobuf(status) };
}
