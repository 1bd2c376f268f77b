import type { ClientHttp2Session, IncomingHttpHeaders, IncomingHttpStatusHeader } from 'node:http2';

/** A unary gRPC call's answer as the client sees it; the outcome comes from the trailers (or a trailers-only answer's headers). */
export interface GrpcAnswer {
  status: number | undefined;
  contentType: string | undefined;
  grpcStatus: string | undefined;
  /** grpc-message, percent-decoded. */
  grpcMessage: string;
  /** grpc-status-details-bin: a google.rpc.Status, decoded from base64. */
  details: Buffer | undefined;
  /** The compressions the server takes, when it names them. */
  grpcAcceptEncoding: string | undefined;
  body: Buffer;
}

/** One unary call on an HTTP/2 session, as a gRPC client makes it, with `body` sent as it is (framed or not). */
export function grpcCall(session: ClientHttp2Session, path: string, body: Buffer, headers: Record<string, string>): Promise<GrpcAnswer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', ...headers });
    let head: IncomingHttpHeaders & IncomingHttpStatusHeader = {};
    let tail: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (head = h));
    stream.on('trailers', (t) => (tail = t));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => {
      const field = (name: string) => (tail[name] ?? head[name]) as string | undefined;
      const details = field('grpc-status-details-bin');
      resolve({
        status: head[':status'],
        contentType: head['content-type'],
        grpcStatus: field('grpc-status'),
        grpcMessage: decodeURIComponent(field('grpc-message') ?? ''),
        details: details === undefined ? undefined : Buffer.from(details, 'base64'),
        grpcAcceptEncoding: field('grpc-accept-encoding'),
        body: Buffer.concat(chunks),
      });
    });
    stream.end(body);
  });
}

/** A gRPC message: the compressed flag, the length big-endian, the bytes. */
export function grpcMessage(message: Uint8Array, compressed = false): Buffer {
  const prefix = Buffer.from([compressed ? 1 : 0, 0, 0, 0, 0]);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}
