import protobuf from 'protobufjs';

/**
 * google.rpc.Status, the body of every OTLP/HTTP failure and the
 * `grpc-status-details-bin` of every OTLP/gRPC one, with an ErrorInfo naming
 * Earshot's error code (and a RetryInfo where a retry is due). Small
 * well-known messages, described to protobufjs by their field numbers from
 * google/rpc/status.proto, error_details.proto and duration.proto rather
 * than shipped as .proto files.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: {
          nested: {
            Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } },
            Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
          },
        },
        rpc: {
          nested: {
            Status: {
              fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 }, details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 } },
            },
            ErrorInfo: { fields: { reason: { type: 'string', id: 1 }, domain: { type: 'string', id: 2 } } },
            RetryInfo: { fields: { retry_delay: { type: 'google.protobuf.Duration', id: 1 } } },
          },
        },
      },
    },
  },
});
const Status = root.lookupType('google.rpc.Status');
const ErrorInfo = root.lookupType('google.rpc.ErrorInfo');
const RetryInfo = root.lookupType('google.rpc.RetryInfo');
const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';
const DOMAIN = 'earshot';

/** gRPC status codes (the Status message's `code`), as the HTTP status of an Earshot error maps to them. */
export function grpcCodeOf(httpStatus: number): number {
  if (httpStatus === 400 || httpStatus === 413) return 3; // INVALID_ARGUMENT
  if (httpStatus === 415) return 12; // UNIMPLEMENTED: a media type or compression the server does not implement
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
  /** When to try again, as RetryInfo: an OTLP/gRPC exporter retries RESOURCE_EXHAUSTED only when it is given. */
  retryAfterSeconds?: number;
}

export function encodeStatusProtobuf(status: RpcStatus): Buffer {
  const info = ErrorInfo.encode(ErrorInfo.create({ reason: status.reason, domain: DOMAIN })).finish();
  const details = [{ type_url: ERROR_INFO_TYPE, value: info }];
  if (status.retryAfterSeconds !== undefined) {
    const retry = RetryInfo.encode(RetryInfo.create({ retry_delay: { seconds: status.retryAfterSeconds, nanos: 0 } })).finish();
    details.push({ type_url: RETRY_INFO_TYPE, value: retry });
  }
  const message = Status.create({ code: grpcCodeOf(status.httpStatus), message: status.message, details });
  return Buffer.from(Status.encode(message).finish());
}

/** The proto3 JSON form of the same Status. */
export function statusJson(status: RpcStatus): Record<string, unknown> {
  return { code: grpcCodeOf(status.httpStatus), message: status.message, details: [{ '@type': ERROR_INFO_TYPE, reason: status.reason, domain: DOMAIN }] };
}
