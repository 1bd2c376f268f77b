import type { ErrorBody } from './models.js';

/** A field that failed validation, by its path in the request. */
export type FieldIssue = NonNullable<ErrorBody['fields']>[number];
export type ErrorCode = ErrorBody['code'];

/** The base of every error the SDK throws. */
export class EarshotError extends Error {
  override name = 'EarshotError';
}

/**
 * A non-2xx answer: the Error shape (`ok: false`, `error`, `code`) with the
 * HTTP status, the request id and the headers. Each code has its subclass.
 */
export class ApiError extends EarshotError {
  override name = 'ApiError';
  /** The Error shape's `code`, e.g. `NOT_FOUND`; `UNKNOWN` when the body was not the Error shape. */
  readonly code: ErrorCode | 'UNKNOWN';
  readonly status: number;
  /** The server's id of the request, to quote in a support ticket. */
  readonly requestId: string | undefined;
  readonly headers: Headers;
  /** The answer's body as the server sent it. */
  readonly body: unknown;

  constructor(status: number, body: unknown, headers: Headers) {
    const shape = isErrorBody(body) ? body : undefined;
    super(shape ? shape.error : `Earshot answered ${status} without an Error body`);
    this.status = status;
    this.code = shape?.code ?? 'UNKNOWN';
    this.requestId = shape?.requestId ?? headers.get('x-request-id') ?? undefined;
    this.headers = headers;
    this.body = body;
  }
}

/** 401 UNAUTHORIZED: the key is missing, unknown, expired or revoked, or an ingest signature did not verify. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
/** 403 FORBIDDEN: the key lacks the route's scope, or the caller's address is not allowed. */
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
/** 404 NOT_FOUND. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/** 400 VALIDATION_ERROR, with the fields that failed. */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
  get fields(): FieldIssue[] {
    return isErrorBody(this.body) ? (this.body.fields ?? []) : [];
  }
  /** Where an ingest body was kept as a dead letter. */
  get deadLetterId(): string | undefined {
    return isErrorBody(this.body) ? this.body.deadLetterId : undefined;
  }
}
/** 409 IDEMPOTENCY_CONFLICT (the key is still in flight) or IDEMPOTENCY_MISMATCH (the key was used with another request). */
export class IdempotencyConflictError extends ApiError {
  override name = 'IdempotencyConflictError';
}
/** 429 RATE_LIMITED, with how long to wait. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** Seconds to wait before retrying (Retry-After), when the server said. */
  get retryAfter(): number | undefined {
    const value = Number(this.headers.get('retry-after'));
    return this.headers.has('retry-after') && Number.isFinite(value) ? value : undefined;
  }
}
/** 502 PROVIDER_ERROR: an upstream provider failed. */
export class ProviderError extends ApiError {
  override name = 'ProviderError';
}
/** 503 UNAVAILABLE: the service cannot take the request now; retry later. */
export class UnavailableError extends ApiError {
  override name = 'UnavailableError';
}

/** The request never got an answer: the connection failed. */
export class ConnectionError extends EarshotError {
  override name = 'ConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
/** An attempt took longer than `timeoutMs`. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}
/** A webhook's signature, timestamp or body did not verify. */
export class WebhookVerificationError extends EarshotError {
  override name = 'WebhookVerificationError';
}

const BY_CODE: Partial<Record<ErrorCode, new (status: number, body: unknown, headers: Headers) => ApiError>> = {
  UNAUTHORIZED: AuthenticationError,
  FORBIDDEN: PermissionDeniedError,
  NOT_FOUND: NotFoundError,
  VALIDATION_ERROR: ValidationError,
  IDEMPOTENCY_CONFLICT: IdempotencyConflictError,
  IDEMPOTENCY_MISMATCH: IdempotencyConflictError,
  RATE_LIMITED: RateLimitError,
  PROVIDER_ERROR: ProviderError,
  UNAVAILABLE: UnavailableError,
};

const BY_STATUS: Record<number, new (status: number, body: unknown, headers: Headers) => ApiError> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: IdempotencyConflictError,
  422: IdempotencyConflictError,
  429: RateLimitError,
  502: ProviderError,
  503: UnavailableError,
};

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && (body as { ok?: unknown }).ok === false && typeof (body as { code?: unknown }).code === 'string';
}

/** The typed error of an answer: by its code, else by its status (a proxy's answer has no Error body). */
export function errorFromResponse(status: number, body: unknown, headers: Headers): ApiError {
  const byCode = isErrorBody(body) ? BY_CODE[body.code] : undefined;
  const Class = byCode ?? (isErrorBody(body) ? ApiError : (BY_STATUS[status] ?? ApiError));
  return new Class(status, body, headers);
}
