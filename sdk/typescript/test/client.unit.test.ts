import { describe, expect, it } from 'vitest';
import { DEFAULT_BASE_URL, normalizeBaseUrl, retryDelayMs } from '../src/index.js';
import { parseRetryAfter } from '../src/backoff.js';
import { batchesOf } from '../src/ingest.js';
import { errorFromResponse } from '../src/errors.js';

describe('base URL normalisation', () => {
  it('takes {base_url} or the service root, with or without a trailing slash, as the same /api/v1 address', () => {
    for (const input of [
      'http://127.0.0.1:8080',
      'http://127.0.0.1:8080/',
      'http://127.0.0.1:8080/api/v1',
      'http://127.0.0.1:8080/api/v1/',
      ' http://127.0.0.1:8080//',
    ])
      expect(normalizeBaseUrl(input)).toBe(DEFAULT_BASE_URL);
    expect(normalizeBaseUrl('https://earshot.example.com/tenant-a?x=1')).toBe('https://earshot.example.com/tenant-a/api/v1');
    expect(() => normalizeBaseUrl('ftp://earshot.example.com')).toThrow(/http/);
    expect(() => normalizeBaseUrl('not a url')).toThrow();
  });
});

describe('backoff', () => {
  it('doubles from 0.5 s to at most 8 s, jittered within the upper half of each step', () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((retry) => retryDelayMs(retry, undefined, () => 1))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect([1, 2, 5].map((retry) => retryDelayMs(retry, undefined, () => 0))).toEqual([250, 500, 4_000]);
  });

  it('never waits less than Retry-After, in seconds or as an HTTP date', () => {
    expect(retryDelayMs(1, parseRetryAfter('3'), () => 1)).toBe(3_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('ingest batches', () => {
  it('cut at 500 events and before 900 kB, keeping the order', () => {
    const small = Array.from({ length: 1_200 }, () => '{"type":"call.started"}');
    expect(batchesOf(small).map((b) => b.length)).toEqual([500, 500, 200]);
    expect(batchesOf(small).flat()).toEqual(small.map((_, i) => i));
    const large = Array.from({ length: 10 }, () => 'x'.repeat(200_000));
    expect(batchesOf(large).map((b) => b.length)).toEqual([4, 4, 2]);
  });
});

describe('typed errors', () => {
  it('follow the code of the Error shape, or the status where a proxy answered without one', () => {
    const headers = new Headers({ 'retry-after': '2' });
    expect(errorFromResponse(429, { ok: false, error: 'slow down', code: 'RATE_LIMITED' }, headers)).toMatchObject({ name: 'RateLimitError', retryAfter: 2 });
    expect(errorFromResponse(409, { ok: false, error: 'used', code: 'IDEMPOTENCY_MISMATCH' }, headers).name).toBe('IdempotencyConflictError');
    expect(errorFromResponse(405, { ok: false, error: 'no', code: 'METHOD_NOT_ALLOWED' }, headers).name).toBe('ApiError');
    expect(errorFromResponse(502, '<html>bad gateway</html>', headers)).toMatchObject({ name: 'ProviderError', code: 'UNKNOWN' });
  });
});
