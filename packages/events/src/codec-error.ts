export type EventCodecErrorCode =
  /** The message does not start with the Avro single-object marker C3 01, or is too short to hold the header. */
  | 'BAD_MARKER'
  /** No schema under schemas/ has the writer fingerprint the message names. */
  | 'UNKNOWN_FINGERPRINT'
  /** No schema file exists for the event type and version asked for. */
  | 'UNKNOWN_SCHEMA'
  /** The message was written with a schema of another kind (a delivery read as an event, say). */
  | 'WRONG_SCHEMA'
  /** The body does not decode with the writer schema it names. */
  | 'MALFORMED_BODY'
  /** The value does not fit the writer schema. */
  | 'INVALID_VALUE';

/** Every failure to encode or decode a log message; consumers dead-letter on it by `code`. */
export class EventCodecError extends Error {
  override readonly name = 'EventCodecError';
  readonly code: EventCodecErrorCode;

  constructor(code: EventCodecErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
