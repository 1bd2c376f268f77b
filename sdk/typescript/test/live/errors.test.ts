import { beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  IdempotencyConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnavailableError,
  ValidationError,
  type OutcomeCreateParams,
} from '../../src/index.js';
import { client, faults, proxied, unique } from './target.js';

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the request did not fail');
}

describe('typed errors', () => {
  beforeEach(() => faults.clear());

  it('[typed-errors] each code of the Error shape is its own error class, with its status, code and details', async () => {
    const earshot = client();

    const unauthorized = await caught(client({ apiKey: 'ear_live_notARealKey' }).calls.list().firstPage());
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const readOnly = await earshot.keys.create({ name: unique('read-only'), scopes: ['calls:read'] });
    const forbidden = await caught(client({ apiKey: readOnly.secret }).outcomes.create({ callId: 'c', type: 't' }));
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect(forbidden).toMatchObject({ status: 403, code: 'FORBIDDEN' });

    const notFound = await caught(earshot.calls.retrieve('00000000-0000-4000-8000-000000000000'));
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(notFound.message).toMatch(/call/);

    const invalid = await caught(earshot.outcomes.create({ callId: 'c' } as OutcomeCreateParams));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect((invalid as ValidationError).fields.map((f) => f.path)).toContain('body.type');

    const idempotencyKey = unique('key');
    await earshot.outcomes.create({ callId: unique('call'), type: 'sale' }, { idempotencyKey });
    const conflict = await caught(earshot.outcomes.create({ callId: unique('call'), type: 'refund' }, { idempotencyKey }));
    expect(conflict).toBeInstanceOf(IdempotencyConflictError);
    expect([409, 422]).toContain(conflict.status);

    await faults.add('GET', '/api/v1/calls', [{ status: 429, retryAfter: 7 }]);
    const limited = await caught(proxied({ maxRetries: 0 }).calls.list().firstPage());
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((limited as RateLimitError).retryAfter).toBe(7);

    await faults.add('GET', '/api/v1/calls', [{ status: 503 }]);
    const unavailable = await caught(proxied({ maxRetries: 0 }).calls.list().firstPage());
    expect(unavailable).toBeInstanceOf(UnavailableError);
    expect(unavailable).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  });
});
