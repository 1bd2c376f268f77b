import protobuf from 'protobufjs';

/**
 * google.rpc.Status, the body of every OTLP/HTTP failure, with an ErrorInfo
 * naming Earshot's error code. Two small well-known messages, described to
 * protobufjs by their field numbers from google/rpc/status.proto and
 * error_details.proto rather than shipped as .proto files.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: { nested: { Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } } } },
        rpc: {
          nested: {
            Status: {
              fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 }, details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 } },
            },
            ErrorInfo: { fields: { reason: { type: 'string', id: 1 }, domain: { type: 'string', id: 2 } } },
          },
        },
      },
    },
  },
});
const Status = root.lookupType('google.rpc.Status');
const ErrorInfo = root.lookupType('google.rpc.ErrorInfo');
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const DOMAIN = 'earshot';

/** gRPC status codes (the Status message's `code`), as the HTTP status of an Earshot error maps to them. */
function grpcCodeOf(httpStatus: number): number {
  if (httpStatus === 400 || httpStatus === 413 || httpStatus === 415) return 3; // INVALID_ARGUMENT
  if (httpStatus === 401) return 16; // UNAUTHENTICATED
  if (httpStatus === 403) return 7; // PERMISSION_DENIED
  if (httpStatus === 404) return 5; // NOT_FOUND
  if (httpStatus === 409) return 6; // ALREADY_EXISTS
  if (httpStatus === 429) return 8; // RESOURCE_EXHAUSTED
  if (httpStatus === 503) return 14; // UNAVAILABLE
  return 13; // INTERNAL
}

export interface RpcStatus {
  httpStatus: number;
  message: string;
  /** Earshot's error code (the catalogue's), carried as the ErrorInfo reason. */
  reason: string;
}

export function encodeStatusProtobuf(status: RpcStatus): Buffer {
  const info = ErrorInfo.encode(ErrorInfo.create({ reason: status.reason, domain: DOMAIN })).finish();
  const message = Status.create({ code: grpcCodeOf(status.httpStatus), message: status.message, details: [{ type_url: ERROR_INFO_TYPE, value: info }] });
  return Buffer.from(Status.encode(message).finish());
}

/** The proto3 JSON form of the same Status. */
export function statusJson(status: RpcStatus): Record<string, unknown> {
  return { code: grpcCodeOf(status.httpStatus), message: status.message, details: [{ '@type': ERROR_INFO_TYPE, reason: status.reason, domain: DOMAIN }] };
}
