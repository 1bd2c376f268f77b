import { encodeStatusProtobuf, grpcCodeOf, type RpcStatus } from './rpc-status';

/** The trailers that end every OTLP/gRPC answer. */
export type GrpcTrailers = {
  'grpc-status': string;
  'grpc-message'?: string;
  'grpc-status-details-bin'?: string;
};

export const GRPC_OK: GrpcTrailers = { 'grpc-status': '0' };

/**
 * A failure as gRPC ends a call: the code the HTTP status maps to (as
 * OTLP/HTTP's Status body has it), the message percent-encoded as gRPC asks,
 * and the whole google.rpc.Status, base64, for clients that read details.
 */
export function grpcFailure(status: RpcStatus): GrpcTrailers {
  return {
    'grpc-status': String(grpcCodeOf(status.httpStatus)),
    'grpc-message': percentEncoded(status.message),
    'grpc-status-details-bin': encodeStatusProtobuf(status).toString('base64').replace(/=+$/, ''),
  };
}

/** gRPC's percent-encoding: printable ASCII other than `%` stays, every other byte of the UTF-8 is %XX. */
function percentEncoded(message: string): string {
  let encoded = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    encoded += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}
