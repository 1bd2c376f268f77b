import { describe, expect, it } from 'vitest';
import { AuthenticationError, ConnectionError, NotFoundError, PermissionDeniedError, RateLimitError, ValidationError } from '@earshot/sdk';
import { EXIT, UsageError } from './exit-codes';
import { failureOf } from './failure';

const body = (code: string, error: string, extra: object = {}) => ({ ok: false, code, error, ...extra });

describe('failures', () => {
  it('gives auth and rate limiting exit codes of their own, each error one line with the API code and what to do', () => {
    const cases = [
      [
        new AuthenticationError(401, body('UNAUTHORIZED', 'the API key is unknown'), new Headers()),
        EXIT.auth,
        /^earshot: UNAUTHORIZED: the API key is unknown; run "earshot login"/,
      ],
      [
        new PermissionDeniedError(403, body('FORBIDDEN', 'the API key lacks\nthe keys:read scope'), new Headers()),
        EXIT.auth,
        /^earshot: FORBIDDEN: the API key lacks the keys:read scope; use a key/,
      ],
      [
        new RateLimitError(429, body('RATE_LIMITED', 'too many requests'), new Headers({ 'retry-after': '12' })),
        EXIT.rateLimited,
        /^earshot: RATE_LIMITED: too many requests; retry in 12 s$/,
      ],
      [new NotFoundError(404, body('NOT_FOUND', 'no such call'), new Headers()), EXIT.failure, /^earshot: NOT_FOUND: no such call; check the id/],
      [
        new ValidationError(400, body('VALIDATION_ERROR', 'invalid query', { fields: [{ path: 'limit', message: 'too big' }] }), new Headers()),
        EXIT.failure,
        /^earshot: VALIDATION_ERROR: invalid query \[limit: too big\]; fix the named fields/,
      ],
      [new ConnectionError('fetch failed'), EXIT.failure, /^earshot: CONNECTION_FAILED: fetch failed; is Earshot running there\?/],
      [new UsageError('--url is required when no terminal is attached'), EXIT.usage, /^earshot: --url is required/],
    ] as const;
    for (const [error, code, line] of cases) {
      const failure = failureOf(error);
      expect(failure.code).toBe(code);
      expect(failure.line).toMatch(line);
      expect(failure.line).not.toContain('\n');
    }
  });
});
