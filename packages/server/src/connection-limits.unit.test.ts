import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ErrorBodySchema } from '@earshot/contracts';
import { buildHttp } from './http';

const LIMITS = { headersTimeoutMs: 600, requestTimeoutMs: 1_200, keepAliveTimeoutMs: 500, maxConnections: 4 };

/** Opens a connection, writes `first`, and resolves with what the server sent and when it closed. */
function exchange(port: number, first: string): { socket: Socket; closed: Promise<{ reply: string; afterMs: number }> } {
  const socket = connect(port, '127.0.0.1');
  const started = performance.now();
  let reply = '';
  socket.on('data', (chunk) => (reply += chunk.toString()));
  socket.on('error', () => undefined);
  if (first) socket.write(first);
  const closed = new Promise<{ reply: string; afterMs: number }>((resolve) =>
    socket.on('close', () => resolve({ reply, afterMs: performance.now() - started })),
  );
  return { socket, closed };
}

const bodyOf = (reply: string) => ErrorBodySchema.parse(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)));

describe('timeouts and the connection cap of the HTTP server', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = buildHttp({ limits: LIMITS });
    app.post('/things', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => app.close());

  it('cuts a body that stalls off within the request timeout, with 408 in the Error shape (it was held open past 420 s)', async () => {
    const { closed } = exchange(port, 'POST /things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":');
    const { reply, afterMs } = await closed;
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(reply)).toMatchObject({ ok: false, code: 'REQUEST_TIMEOUT' });
    expect(afterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 50);
    expect(afterMs).toBeLessThan(LIMITS.requestTimeoutMs + 1_500);
  });

  it('cuts headers that trickle in off within the headers timeout, with 408', async () => {
    const { socket, closed } = exchange(port, 'POST /things HTTP/1.1\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    const { reply, afterMs } = await closed;
    clearInterval(trickle);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(reply).code).toBe('REQUEST_TIMEOUT');
    expect(afterMs).toBeLessThan(LIMITS.headersTimeoutMs + 1_500);
  });

  it('closes a kept-alive connection idle past the keep-alive timeout', async () => {
    const { closed } = exchange(port, 'POST /things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    const { reply, afterMs } = await closed;
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(afterMs).toBeLessThan(LIMITS.keepAliveTimeoutMs + 1_500);
  });

  it('holds no more connections than its cap: the next is closed at once', async () => {
    const held = Array.from({ length: LIMITS.maxConnections }, () => exchange(port, ''));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const { reply, afterMs } = await extra.closed;
    expect(reply).toBe('');
    expect(afterMs).toBeLessThan(LIMITS.headersTimeoutMs);
    for (const { socket } of held) socket.destroy();
  });
});
