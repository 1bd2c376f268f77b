import { ErrorBodySchema } from '@earshot/contracts';

const error = ErrorBodySchema;
/** Any key route: bad input, who-are-you, not-allowed, too many, and 503 when the key store or database is down. */
const read = { 400: error, 401: error, 403: error, 429: error, 503: error } as const;
/** A write also answers 409 (its Idempotency-Key in flight, or used with another body). */
const write = { ...read, 409: error } as const;
/** An operator route: bad input, a missing or wrong operator token, and 503. */
const operator = { 400: error, 401: error, 503: error } as const;

/**
 * The one table of the error answers a route declares besides its own, by
 * the kind of route, every one in the Error shape: the statuses each code
 * maps to are the error catalogue's (packages/contracts/src/errors.ts).
 */
export const ROUTE_ERRORS = {
  read,
  readOne: { ...read, 404: error },
  write,
  writeOne: { ...write, 404: error },
  operator,
  operatorOne: { ...operator, 404: error },
} as const;
