import { connect, type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildGrpcHttp, sendGrpc } from './grpc-http';

const METHOD = '/earshot.test.Echo/Say';

/** One unary call on the session: the HTTP status and the grpc-status, from the trailers or a trailers-only answer. */
function call(session: ClientHttp2Session): Promise<{ status: number | undefined; grpcStatus: string | undefined; grpcMessage: string | undefined }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': METHOD, 'content-type': 'application/grpc', te: 'trailers' });
    let status: number | undefined;
    let fields: Record<string, string | string[] | undefined> = {};
    stream.on('response', (headers) => {
      status = headers[':status'];
      fields = { ...headers };
    });
    stream.on('trailers', (trailers) => (fields = { ...fields, ...trailers }));
    stream.on('error', reject);
    stream.resume();
    stream.on('end', () =>
      resolve({ status, grpcStatus: fields['grpc-status'] as string | undefined, grpcMessage: fields['grpc-message'] as string | undefined }),
    );
    stream.end(Buffer.from([0, 0, 0, 0, 0]));
  });
}

describe('the gRPC app', () => {
  let app: FastifyInstance | undefined;
  let session: ClientHttp2Session | undefined;
  afterEach(async () => {
    session?.destroy();
    await app?.close();
  });

  it('answers a request that reaches it while it closes UNAVAILABLE in gRPC’s form, not with an HTTP 503', async () => {
    const grpc = buildGrpcHttp({ idleTimeoutMs: 5_000, maxConnections: 10 });
    app = grpc;
    grpc.addContentTypeParser('application/grpc', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    grpc.post(METHOD, async (_request, reply) => sendGrpc(reply, { 'grpc-status': '0' }, Buffer.from([0, 0, 0, 0, 0])));
    // Holds the close between its start and the sessions' end, the window a request in flight can reach it in.
    let closeStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (closeStarted = resolve));
    let releaseClose: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (releaseClose = resolve));
    grpc.addHook('preClose', async () => {
      closeStarted();
      await released;
    });
    await grpc.listen({ host: '127.0.0.1', port: 0 });
    session = connect(`http://127.0.0.1:${(grpc.server.address() as AddressInfo).port}`);

    expect(await call(session)).toMatchObject({ status: 200, grpcStatus: '0' });
    const closed = grpc.close();
    await started;
    expect(await call(session)).toEqual({ status: 200, grpcStatus: '14', grpcMessage: 'the server is shutting down: try again' });
    releaseClose();
    await closed;
    app = undefined;
  });
});
