import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@earshot/telemetry';
import { startTestKeys, type TestKeys } from '@earshot/testing';

/**
 * The tenant a key names is bound to its request's logger in place: each
 * request's entries say whose they are, and no other request's do.
 */
describe('the tenant in what a request logs', () => {
  const lines: string[] = [];
  let keys: TestKeys;

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    keys = await startTestKeys('api-scope-log', {}, createLogger({ level: 'info', pretty: false, destination }));
  });
  afterAll(async () => {
    await keys?.stop();
  });

  it('names the tenant of each key on its own request, and none on a request without a key', async () => {
    const [a, b] = [await keys.createTenant('Tenant A'), await keys.createTenant('Tenant B')];
    const requests = [
      await keys.call({ method: 'GET', path: '/calls', token: a.apiKey }),
      await keys.call({ method: 'GET', path: '/calls', token: b.apiKey }),
      await keys.call({ method: 'GET', path: '/calls' }),
      await keys.call({ method: 'GET', path: '/calls', token: a.apiKey }),
    ];
    expect(requests.map((r) => r.statusCode)).toEqual([200, 200, 401, 200]);

    const completed = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.route === '/api/v1/calls' && (entry.msg === 'request completed' || entry.msg === 'request failed'));
    const byRequest = new Map(completed.map((entry) => [entry.requestId, entry.tenantId]));
    expect(requests.map((r) => byRequest.get(r.headers['x-request-id']))).toEqual([a.tenant.id, b.tenant.id, undefined, a.tenant.id]);
  });
});
