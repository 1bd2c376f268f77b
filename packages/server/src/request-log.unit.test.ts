import { describe, expect, it } from 'vitest';
import { loggedEntries } from '@earshot/testing';
import { buildHttp } from './http';
import { logRequests } from './request-log';

/** The access log as a collector reads it: one JSON line per answered request, with its id, route template, status and level name. */
describe('the request log', () => {
  it('writes one JSON line per request, carrying the request id the answer names', async () => {
    const logged = loggedEntries();
    const app = buildHttp({ logger: logged.logger });
    logRequests(app);
    app.get('/things/:id', async () => ({ ok: true }));
    const response = await app.inject({ method: 'GET', url: '/things/42' });
    await app.close();

    const entries = logged.entries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      level: 'info',
      msg: 'request completed',
      requestId: response.headers['x-request-id'],
      method: 'GET',
      route: '/things/:id',
      statusCode: 200,
    });
    expect(Date.parse(String(entries[0]?.time))).not.toBeNaN();
  });
});
