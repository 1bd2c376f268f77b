import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, ERROR_STATUS, validationError } from './errors';

describe('error catalogue', () => {
  it('maps each code of the spec to its status', () => {
    expect(ERROR_STATUS).toMatchObject({
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      VALIDATION_ERROR: 400,
      IDEMPOTENCY_CONFLICT: 409,
      RATE_LIMITED: 429,
      PROVIDER_ERROR: 502,
    });
  });

  it('renders the spec Error shape', () => {
    expect(new ApiError('NOT_FOUND', 'call not found').body('req-1')).toEqual({ ok: false, error: 'call not found', code: 'NOT_FOUND', requestId: 'req-1' });
  });

  it('names every invalid field in a validation error', () => {
    const parsed = z.object({ a: z.string(), b: z.object({ c: z.number() }) }).safeParse({ b: { c: 'x' } });
    if (parsed.success) throw new Error('expected a failure');
    const error = validationError(parsed.error, 'body');
    expect(error.status).toBe(400);
    expect(error.detail.fields?.map((f) => f.path)).toEqual(['a', 'b.c']);
    expect(error.message).toBe('body is invalid: a, b.c');
  });
});
