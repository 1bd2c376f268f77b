import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedEntries, startTestKeys, type TestKeys } from '@earshot/testing';

/**
 * The tenant a key names is bound to its request's logger in place: each
 * request's entries say whose they are, and no other request's do.
 */
describe('the tenant in what a request logs', () => {
  const logged = loggedEntries();
  let keys: TestKeys;

  beforeAll(async () => {
    keys = await startTestKeys('api-scope-log', {}, logged.logger);
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

    const completed = logged
      .entries()
      .filter((entry) => entry.route === '/api/v1/calls' && (entry.msg === 'request completed' || entry.msg === 'request failed'));
    const byRequest = new Map(completed.map((entry) => [entry.requestId, entry.tenantId]));
    expect(requests.map((r) => byRequest.get(r.headers['x-request-id']))).toEqual([a.tenant.id, b.tenant.id, undefined, a.tenant.id]);
  });
});
