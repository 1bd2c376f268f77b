import { ErrorBodySchema } from '@earshot/contracts';

/** The statuses every authenticated route may answer besides its own: bad input, who-are-you, not-allowed, too many. */
export const COMMON_ERRORS = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 429: ErrorBodySchema } as const;

/** A write also answers 409 (same key in flight, or used with another body) and 503 (log unreachable). */
export const WRITE_ERRORS = { ...COMMON_ERRORS, 409: ErrorBodySchema, 503: ErrorBodySchema } as const;
