import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_SCOPES } from './route-scopes';
import { startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

const GET_ROUTES = [
  '/realtime',
  '/metrics?name=calls.total',
  '/calls',
  '/outcomes',
  '/incidents',
  '/alerts',
  '/deployments',
  '/usage',
  '/billing/invoices',
  '/audit',
];

describe('query service access: keys, scopes, addresses and limits', () => {
  let query: TestQuery;
  let acme: QueryTenant;

  beforeAll(async () => {
    query = await startTestQuery('query-access', { env: { EARSHOT_KEY_REQUESTS_PER_MIN: '5' } });
    acme = await query.createTenant('Acme');
  });
  afterAll(async () => query?.stop());

  it('serves /health without a key, naming the database and the log', async () => {
    const response = await query.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ok: true,
      service: 'earshot',
      database: { connected: true, latencyMs: expect.any(Number) },
      log: { connected: true },
    });
  });

  it('answers 401 UNAUTHORIZED on every other route without a key, with a malformed, unknown, revoked or expired key, each saying why', async () => {
    const unknown = await query.createKey(acme.id);
    await query.db.query(query.sql`delete from api_keys where key_hash = sha256(${unknown}::bytea)`);
    const keys = {
      'an API key is required': undefined,
      malformed: 'ear_live_nope',
      'not known': unknown,
      revoked: await query.createKey(acme.id, { revoked: true }),
      expired: await query.createKey(acme.id, { expiresAt: new Date(query.clock.now().getTime() - 1_000) }),
    };
    for (const [why, key] of Object.entries(keys)) {
      for (const route of [...GET_ROUTES, '/calls/00000000-0000-0000-0000-000000000000']) {
        const response = await query.app.inject({ method: 'GET', url: `/api/v1${route}`, headers: key ? { authorization: `Bearer ${key}` } : {} });
        expect(response.statusCode, `${why} ${route}`).toBe(401);
        expect(response.json()).toMatchObject({ ok: false, code: 'UNAUTHORIZED', error: expect.stringContaining(why) });
      }
    }
  });

  it('answers 403 FORBIDDEN for a key without the route’s scope, on every route of the scope table', async () => {
    for (const [route, scope] of Object.entries(ROUTE_SCOPES)) {
      const others = [...new Set(Object.values(ROUTE_SCOPES))].filter((s) => s !== scope);
      const key = await query.createKey(acme.id, { scopes: others });
      const [method = 'GET', path = '/'] = route.split(' ');
      const url = `/api/v1${path.replace(':id', '00000000-0000-0000-0000-000000000000')}${path === '/metrics' ? '?name=calls.total' : ''}`;
      const response = await query.app.inject({
        method: method as 'GET' | 'POST',
        url,
        headers: { authorization: `Bearer ${key}` },
        payload: method === 'POST' ? {} : undefined,
      });
      expect(response.statusCode, route).toBe(403);
      expect(response.json(), route).toMatchObject({ ok: false, code: 'FORBIDDEN', error: `the API key lacks the ${scope} scope` });
    }
  });

  it('answers 403 FORBIDDEN from an address outside the key’s allowlist, and serves one inside it', async () => {
    const elsewhere = await query.createKey(acme.id, { ipAllowlist: ['203.0.113.0/24'] });
    const refused = await query.get('/calls', elsewhere);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', error: expect.stringContaining('may not be used from 127.0.0.1') });
    const local = await query.createKey(acme.id, { ipAllowlist: ['127.0.0.0/8'] });
    expect((await query.get('/calls', local)).statusCode).toBe(200);
  });

  it('limits each key to its requests per minute with RateLimit headers, then 429 RATE_LIMITED with Retry-After', async () => {
    const key = await query.createKey(acme.id);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await query.get('/alerts', key));
    expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0]?.headers).toMatchObject({ 'ratelimit-limit': '5', 'ratelimit-remaining': '4' });
    const limited = answers[5];
    expect(limited?.statusCode).toBe(429);
    expect(limited?.json()).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // Another key of the same tenant has its own allowance.
    expect((await query.get('/alerts', await query.createKey(acme.id))).statusCode).toBe(200);
  });
});

describe('query service health when a dependency is down', () => {
  it('answers 503 in the Error shape naming the database once it is gone', async () => {
    const query = await startTestQuery('query-health');
    try {
      await query.dropDatabase();
      const response = await query.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ ok: false, code: 'UNAVAILABLE', error: expect.stringContaining('database'), database: { connected: false } });
    } finally {
      await query.stop();
    }
  });
});
