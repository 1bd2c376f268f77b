import type { OtlpBodyResult, ReceivedOtlp } from './otlp-body';

/** The most a gRPC message may declare: the OTLP/HTTP body limit, so both transports take the same exports. */
export const GRPC_MESSAGE_LIMIT_BYTES = 16 * 1024 * 1024;
/** A gRPC message's prefix: the compressed flag, then the length as 4 bytes big-endian. */
const PREFIX_BYTES = 5;

/**
 * The one message of a unary gRPC request body, as the OTLP/HTTP decoding
 * takes it: a compressed message is inflated as a `Content-Encoding` body
 * would be, by the coding `grpc-encoding` names. A body that is not exactly
 * one whole message is refused with what was wrong with its frame.
 */
export function unframe(body: Buffer, grpcEncoding: string | undefined): OtlpBodyResult<ReceivedOtlp> {
  if (body.length < PREFIX_BYTES) return invalid(`the body holds ${body.length} bytes, less than a gRPC message prefix (5)`);
  const flag = body.readUInt8(0);
  const length = body.readUInt32BE(1);
  if (flag > 1) return invalid(`the gRPC message's compressed flag is ${flag}; it is 0 or 1`);
  if (length > GRPC_MESSAGE_LIMIT_BYTES)
    return { ok: false, code: 'PAYLOAD_TOO_LARGE', message: `the gRPC message declares ${length} bytes; at most ${GRPC_MESSAGE_LIMIT_BYTES} are taken` };
  const received = body.length - PREFIX_BYTES;
  if (received < length) return invalid(`the gRPC message is truncated: it declares ${length} bytes and ${received} arrived`);
  if (received > length) return invalid(`the body holds more than one gRPC message; Export is unary`);
  const coding = flag === 1 ? (grpcEncoding ?? 'identity').trim().toLowerCase() : 'identity';
  if (flag === 1 && coding === 'identity') return invalid('the gRPC message is flagged compressed but grpc-encoding names no compression');
  // gRPC answers a compression it does not implement UNIMPLEMENTED, naming the ones it takes.
  if (coding !== 'identity' && coding !== 'gzip')
    return {
      ok: false,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: `grpc-encoding ${coding} is not supported: compress with gzip or not at all`,
      headers: { 'grpc-accept-encoding': 'gzip' },
    };
  return { ok: true, request: { bytes: body.subarray(PREFIX_BYTES), encoding: 'protobuf', contentEncoding: coding } };
}

/** A message as a gRPC response body: uncompressed, length-prefixed. */
export function frame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(PREFIX_BYTES);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

function invalid(message: string): OtlpBodyResult<ReceivedOtlp> {
  return { ok: false, code: 'VALIDATION_ERROR', message };
}
