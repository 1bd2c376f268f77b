import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../src/index.js';
import { faults, proxied, unique } from './target.js';

describe('retries through the fault proxy', () => {
  beforeEach(() => faults.clear());

  it('[retry-5xx] GET /calls answers 503 then 200: the list succeeds after one retry', async () => {
    await faults.add('GET', '/api/v1/calls', [{ status: 503 }]);
    const page = await proxied().calls.list({ limit: 1 }).firstPage();
    expect(page.items).toEqual(expect.any(Array));
    expect((await faults.log()).map((r) => r.status)).toEqual([503, 200]);
  });

  it('[retry-429] a 429 with Retry-After: 1 is waited out for at least a second, then retried', async () => {
    await faults.add('GET', '/api/v1/realtime', [{ status: 429, retryAfter: 1 }]);
    const started = performance.now();
    expect((await proxied().realtime.retrieve()).concurrentCalls).toBeGreaterThanOrEqual(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    expect((await faults.log()).map((r) => r.status)).toEqual([429, 200]);
  });

  it('[idempotent-retry] POST /outcomes applied, answered 503: the retry carries the same key and the outcome exists once', async () => {
    const earshot = proxied();
    const callId = unique('call');
    await faults.add('POST', '/api/v1/outcomes', [{ status: 503, afterForwarding: true }]);
    const created = await earshot.outcomes.create({ callId, type: 'appointment_booked', value: 'tuesday 10:00', revenueUsd: 120 });
    const posts = (await faults.log()).filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status)).toEqual([503, 201]);
    expect(posts[0]?.idempotencyKey).toEqual(expect.any(String));
    expect(posts[1]?.idempotencyKey).toBe(posts[0]?.idempotencyKey);
    const outcomes = await earshot.outcomes.list({ callId }).toArray();
    expect(outcomes.map((o) => o.id)).toEqual([created.id]);
  });

  it('[no-retry-4xx] a 400 and a 404 are not retried: the proxy sees one request each', async () => {
    const earshot = proxied();
    await expect(earshot.calls.retrieve('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(earshot.calls.list({ limit: 0 }).firstPage()).rejects.toBeInstanceOf(ValidationError);
    expect((await faults.log()).map((r) => `${r.path} ${r.status}`)).toEqual(['/api/v1/calls/00000000-0000-4000-8000-000000000000 404', '/api/v1/calls 400']);
  });
});
