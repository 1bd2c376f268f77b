import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';

/**
 * A reverse proxy in front of a live Earshot that answers chosen requests
 * with faults, so every SDK's retry scenarios run against the real server.
 * `POST /__faults` with `{ method, path, answers: [{ status, retryAfter?, afterForwarding? }] }`
 * queues answers for the next requests whose method and path (without the
 * query) match; `afterForwarding` lets the request reach the server first
 * (a write that was applied but whose answer was lost). `GET /__faults/log`
 * lists what passed, with each request's Idempotency-Key; `DELETE /__faults`
 * clears both. WebSocket upgrades are piped through, and `POST /__faults/drop-streams` cuts them.
 */
const FaultSchema = z.object({
  method: z.string().transform((m) => m.toUpperCase()),
  path: z.string().startsWith('/'),
  answers: z
    .array(
      z.object({ status: z.number().int().min(100).max(599), retryAfter: z.number().int().min(0).optional(), afterForwarding: z.boolean().default(false) }),
    )
    .min(1),
});
type Fault = z.infer<typeof FaultSchema>;

export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  status: number;
}

export interface FaultProxy {
  url: string;
  log: ProxiedRequest[];
  close(): Promise<void>;
}

function body(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function errorAnswer(response: ServerResponse, status: number, retryAfter: number | undefined): void {
  const code = status === 429 ? 'RATE_LIMITED' : status >= 500 ? 'UNAVAILABLE' : 'VALIDATION_ERROR';
  response.writeHead(status, { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }) });
  response.end(JSON.stringify({ ok: false, error: `fault injected by the test proxy (${status})`, code }));
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const faults: Fault[] = [];
  const log: ProxiedRequest[] = [];
  const streams = new Set<Socket>();

  const pass = (request: IncomingMessage, payload: Buffer): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const out = forward({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
        void body(answer).then((text) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: text }), reject);
      });
      out.on('error', reject);
      out.end(payload);
    });

  const server: Server = createServer((request, response) => {
    void (async () => {
      const payload = await body(request);
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (path === '/__faults' && request.method === 'POST') {
        faults.push(FaultSchema.parse(JSON.parse(payload.toString('utf8'))));
        return response.writeHead(204).end();
      }
      if (path === '/__faults' && request.method === 'DELETE') {
        faults.splice(0);
        log.splice(0);
        return response.writeHead(204).end();
      }
      if (path === '/__faults/log') return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(log));
      if (path === '/__faults/drop-streams') {
        for (const socket of streams) socket.destroy();
        return response.writeHead(204).end();
      }
      const fault = faults.find((f) => f.method === request.method && f.path === path);
      const answer = fault?.answers.shift();
      if (fault && fault.answers.length === 0) faults.splice(faults.indexOf(fault), 1);
      const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
      if (answer && !answer.afterForwarding) {
        log.push({ method: request.method ?? '', path, idempotencyKey, status: answer.status });
        return errorAnswer(response, answer.status, answer.retryAfter);
      }
      const passed = await pass(request, payload);
      log.push({ method: request.method ?? '', path, idempotencyKey, status: answer?.status ?? passed.status });
      if (answer) return errorAnswer(response, answer.status, answer.retryAfter);
      response.writeHead(passed.status, passed.headers);
      response.end(passed.body);
    })().catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: false, error: `test proxy: ${error instanceof Error ? error.message : String(error)}`, code: 'UNAVAILABLE' }));
    });
  });

  server.on('upgrade', (request: IncomingMessage, client: Socket, head: Buffer) => {
    const out = forward({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers });
    out.on('upgrade', (answer, server_, serverHead) => {
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`, ...Object.entries(answer.headers).map(([k, v]) => `${k}: ${String(v)}`)];
      client.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (serverHead.length > 0) client.write(serverHead);
      if (head.length > 0) server_.write(head);
      streams.add(client);
      client.once('close', () => {
        streams.delete(client);
        server_.destroy();
      });
      server_.once('close', () => client.destroy());
      server_.pipe(client).pipe(server_);
    });
    out.on('response', (answer) => {
      client.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\n\r\n`);
    });
    out.on('error', () => client.destroy());
    out.end();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: async () => {
      for (const socket of streams) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
