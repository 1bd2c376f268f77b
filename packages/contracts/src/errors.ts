import { z } from 'zod';

/**
 * The one error catalogue: every failure the API reports has a stable code,
 * and each code has exactly one HTTP status.
 */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  VALIDATION_ERROR: 400,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  IDEMPOTENCY_CONFLICT: 409,
  // The spec answers a duplicate idempotency key with 409; reused with another body, it is that duplicate.
  IDEMPOTENCY_MISMATCH: 409,
  // Valid credentials of another provider than the connection's (or none where it needs some): a conflict with
  // the connection as stored, which the request alone does not show.
  CREDENTIALS_MISMATCH: 409,
  // What was asked for existed and was erased by crypto-shredding (its data key destroyed): gone for good.
  ERASED: 410,
  RATE_LIMITED: 429,
  PROVIDER_ERROR: 502,
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** A field that failed validation, by its path in the request. */
export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/** The spec's Error shape; `fields`, `deadLetterId` and `requestId` add detail where they apply. */
export const ErrorBodySchema = z.object({
  ok: z.literal(false),
  error: z.string(),
  code: ErrorCodeSchema,
  fields: z.array(FieldIssueSchema).optional(),
  deadLetterId: z.string().optional(),
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export interface ApiErrorDetail {
  fields?: FieldIssue[];
  deadLetterId?: string;
  /** Response headers the error carries, e.g. Retry-After on RATE_LIMITED, Allow on METHOD_NOT_ALLOWED. */
  headers?: Record<string, string>;
  /** What failed underneath (a store, the log): logged with the request, never sent. */
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly detail: ApiErrorDetail = {},
  ) {
    super(message, detail.cause === undefined ? undefined : { cause: detail.cause });
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }

  body(requestId?: string): ErrorBody {
    return {
      ok: false,
      error: this.message,
      code: this.code,
      ...(this.detail.fields ? { fields: this.detail.fields } : {}),
      ...(this.detail.deadLetterId ? { deadLetterId: this.detail.deadLetterId } : {}),
      ...(requestId ? { requestId } : {}),
    };
  }
}

/** Turns zod issues into the field list of a VALIDATION_ERROR. */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(body)', message: issue.message }));
}

export function validationError(error: z.ZodError, what: string): ApiError {
  const fields = fieldIssues(error);
  const named = fields.map((f) => f.path).join(', ');
  return new ApiError('VALIDATION_ERROR', `${what} is invalid: ${named}`, { fields });
}
