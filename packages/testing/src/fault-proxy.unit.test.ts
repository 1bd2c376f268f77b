import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

describe('the SDK suites’ fault proxy', () => {
  let upstream: Server;
  let proxy: FaultProxy;
  let applied = 0;

  beforeAll(async () => {
    upstream = createServer((request, response) => {
      if (request.method === 'POST') applied++;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, path: request.url }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startFaultProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('answers the queued faults for matching requests in order, then lets them through, and logs each with its Idempotency-Key', async () => {
    const queue = { method: 'get', path: '/api/v1/calls', answers: [{ status: 503 }, { status: 429, retryAfter: 2 }] };
    expect((await fetch(`${proxy.url}/__faults`, { method: 'POST', body: JSON.stringify(queue) })).status).toBe(204);
    const first = await fetch(`${proxy.url}/api/v1/calls?limit=1`);
    expect(first.status).toBe(503);
    expect(await first.json()).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
    const second = await fetch(`${proxy.url}/api/v1/calls`);
    expect([second.status, second.headers.get('retry-after')]).toEqual([429, '2']);
    const third = await fetch(`${proxy.url}/api/v1/calls?limit=1`, { headers: { 'idempotency-key': 'k1' } });
    expect(await third.json()).toEqual({ ok: true, path: '/api/v1/calls?limit=1' });
    expect(proxy.log.map((r) => [r.status, r.idempotencyKey])).toEqual([
      [503, undefined],
      [429, undefined],
      [200, 'k1'],
    ]);
  });

  it('forwards a write first when the fault comes after it, as a lost answer to an applied write', async () => {
    await fetch(`${proxy.url}/__faults`, {
      method: 'POST',
      body: JSON.stringify({ method: 'POST', path: '/api/v1/outcomes', answers: [{ status: 503, afterForwarding: true }] }),
    });
    const before = applied;
    expect((await fetch(`${proxy.url}/api/v1/outcomes`, { method: 'POST', body: '{}' })).status).toBe(503);
    expect(applied).toBe(before + 1);
  });
});
