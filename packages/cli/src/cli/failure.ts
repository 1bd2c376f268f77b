import { ApiError, AuthenticationError, ConnectionError, PermissionDeniedError, RateLimitError, ValidationError } from '@earshot/sdk';
import type { ErrorCode } from '@earshot/contracts';
import { EXIT, UsageError, type ExitCode } from './exit-codes';

/** What to do about each of the API's codes, said after the server's own message. */
const ADVICE: Partial<Record<ErrorCode | 'UNKNOWN', string>> = {
  UNAUTHORIZED: 'run "earshot login", or set EARSHOT_API_KEY to a live key',
  FORBIDDEN: 'use a key with that scope ("earshot keys create --scopes …"), or call from an allowed address',
  NOT_FOUND: 'check the id; the list commands show what exists',
  VALIDATION_ERROR: 'fix the named fields; "earshot help <command>" shows what each option takes',
  IDEMPOTENCY_CONFLICT: 'the same request is still in flight; retry in a moment',
  IDEMPOTENCY_MISMATCH: 'the idempotency key was used for another request; use a new one',
  CREDENTIALS_MISMATCH: 'send the credentials of the connection’s own provider, or none for a Standard Webhooks one',
  PROVIDER_ERROR: 'an upstream provider failed; retry later',
  UNAVAILABLE: 'the service cannot answer now; retry later',
};

export interface Failure {
  code: ExitCode;
  /** One line: the API's code, its message and what to do. */
  line: string;
}

/** Any error a command throws, as its exit code and the single line printed for it. */
export function failureOf(error: unknown): Failure {
  if (error instanceof UsageError) return { code: EXIT.usage, line: `earshot: ${error.message} (see "earshot help")` };
  if (error instanceof RateLimitError) {
    const wait = error.retryAfter === undefined ? 'later' : `in ${error.retryAfter} s`;
    return { code: EXIT.rateLimited, line: `earshot: RATE_LIMITED: ${error.message}; retry ${wait}` };
  }
  if (error instanceof ApiError) {
    const auth = error instanceof AuthenticationError || error instanceof PermissionDeniedError;
    const fields = error instanceof ValidationError && error.fields.length > 0 ? ` [${error.fields.map((f) => `${f.path}: ${f.message}`).join('; ')}]` : '';
    const advice = ADVICE[error.code] ?? `HTTP ${error.status}`;
    return { code: auth ? EXIT.auth : EXIT.failure, line: `earshot: ${error.code}: ${oneLine(error.message)}${fields}; ${advice}` };
  }
  if (error instanceof ConnectionError)
    return {
      code: EXIT.failure,
      line: `earshot: CONNECTION_FAILED: ${oneLine(error.message)}; is Earshot running there? (--url, EARSHOT_BASE_URL or "earshot login")`,
    };
  return { code: EXIT.failure, line: `earshot: ${oneLine(error instanceof Error ? error.message : String(error))}` };
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();
