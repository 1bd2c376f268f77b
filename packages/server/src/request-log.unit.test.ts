import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@earshot/telemetry';
import { buildHttp } from './http';
import { logRequests } from './request-log';

/** The access log as a collector reads it: one JSON line per answered request, with its id, route template, status and level name. */
describe('the request log', () => {
  it('writes one JSON line per request, carrying the request id the answer names', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const app = buildHttp({ logger: createLogger({ level: 'info', pretty: false, destination }) });
    logRequests(app);
    app.get('/things/:id', async () => ({ ok: true }));
    const response = await app.inject({ method: 'GET', url: '/things/42' });
    await app.close();

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
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
